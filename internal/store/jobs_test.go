package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func jobIDs(rows []JobRow) []int64 { return pluck(rows, func(r JobRow) int64 { return r.ID }) }

func TestJobs(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	job := func(key, status string) JobRow {
		return JobRow{Key: key, Indexer: "scip-go", Root: ".", Status: status, Scope: `["a.go"]`, Trigger: "reconcile", Head: "abc",
			CreatedAt: 10, StartedAt: 11, FinishedAt: 12, Progress: "1/2", Error: "", Reason: "", Stats: "{}"}
	}
	var ids []int64
	err := db.UpdateJobs(ctx, func(tx *JobTx) error {
		for _, j := range []JobRow{job("go:.", "completed"), job("go:.", "running"), job("py:b", "queued"), job("go:.", "queued"), job("py:b", "failed")} {
			id, err := tx.Insert(ctx, j)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.UpdateJobs(ctx, func(tx *JobTx) error {
		active, err := tx.Active(ctx, "go:.")
		if err != nil {
			return err
		}
		if diff := cmp.Diff([]int64{ids[1], ids[3]}, jobIDs(active)); diff != "" {
			t.Errorf("Active, oldest first (-want +got):\n%s", diff)
		}
		running, err := tx.Running(ctx)
		if err != nil {
			return err
		}
		if diff := cmp.Diff([]int64{ids[1]}, jobIDs(running)); diff != "" {
			t.Errorf("Running (-want +got):\n%s", diff)
		}
		j, ok, err := tx.Get(ctx, ids[2])
		if err != nil || !ok {
			t.Fatalf("Get: %v %v", ok, err)
		}
		want := job("py:b", "queued")
		want.ID = ids[2]
		if diff := cmp.Diff(want, j); diff != "" {
			t.Errorf("Get (-want +got):\n%s", diff)
		}
		if _, ok, err := tx.Get(ctx, 9999); ok || err != nil {
			t.Errorf("Get of an unknown job: %v %v", ok, err)
		}
		j.Status, j.Reason, j.FinishedAt = "superseded", "HEAD moved", 20
		return tx.Update(ctx, j)
	})
	if err != nil {
		t.Fatal(err)
	}
	// A transaction whose function fails changes nothing.
	stop := errStop{}
	if err := db.UpdateJobs(ctx, func(tx *JobTx) error {
		if _, err := tx.Insert(ctx, job("rs:.", "queued")); err != nil {
			return err
		}
		return stop
	}); err != stop {
		t.Fatalf("UpdateJobs returns the function's error: %v", err)
	}
	if err := db.SetJobProgress(ctx, ids[1], "2/2"); err != nil {
		t.Fatal(err)
	}
	got, ok, err := db.Job(ctx, ids[2])
	if err != nil || !ok || got.Status != "superseded" || got.Reason != "HEAD moved" || got.FinishedAt != 20 {
		t.Errorf("Job after Update: %+v %v %v", got, ok, err)
	}
	if got, _, _ := db.Job(ctx, ids[1]); got.Progress != "2/2" {
		t.Errorf("progress %q", got.Progress)
	}
	if _, ok, err := db.Job(ctx, 9999); ok || err != nil {
		t.Errorf("Job of an unknown id: %v %v", ok, err)
	}
	queued, err := db.QueuedJobs(ctx)
	same(t, "QueuedJobs", []int64{ids[3]}, jobIDs(queued), err)
	recent, err := db.Jobs(ctx, 3)
	same(t, "Jobs, newest first", []int64{ids[4], ids[3], ids[2]}, jobIDs(recent), err)
	// Pruning keeps the newest jobs (active ones count) and never an active one.
	if err := db.PruneJobs(ctx, 2); err != nil {
		t.Fatal(err)
	}
	all, err := db.Jobs(ctx, 100)
	same(t, "after PruneJobs(2)", []int64{ids[4], ids[3], ids[1]}, jobIDs(all), err)
}
