package protocol

// TaskMeta is the part of meta that shows the task a call ran in: its state,
// what it has spent of each budget, and how often it made no progress.
type TaskMeta struct {
	State        string `json:"state"`
	Mutations    int    `json:"mutations"`
	MaxMutations int    `json:"max_mutations"`
	TestRuns     int    `json:"test_runs"`
	MaxTestRuns  int    `json:"max_test_runs"`
	ReadBytes    int64  `json:"read_bytes"`
	MaxReadBytes int64  `json:"max_read_bytes"`
	ElapsedS     int64  `json:"elapsed_s"`
	MaxDurationS int    `json:"max_duration_s"`
	NoProgress   int    `json:"no_progress"`
	Refused      int    `json:"refused"`
}
