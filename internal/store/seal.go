package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// A seal records what a database file (and its write-ahead log) looked like
// when Cairn last finished writing it. SQLite notices damage to its page
// structure but not to the values inside pages, so a file changed by anything
// else — a disk tool, a restored backup, random damage — could answer
// plausibly and wrongly. Comparing stat data with the seal costs a few
// microseconds and is done before every request answers; a mismatch means the
// file must be verified (or rebuilt) before it is trusted again.
//
// Writers hold the seal's flock for the whole write (sealWrite) and mark the
// seal with their PID while they write, so readers trust a file that a live
// writer is changing and a writer that died mid-write (SQLite's atomic commit
// keeps the file consistent) without a false alarm.

// stamp is the stat data that any write moves.
type stamp struct {
	Size    int64 `json:"size"`
	MtimeNS int64 `json:"mtime_ns"`
	CtimeNS int64 `json:"ctime_ns"`
	Ino     int64 `json:"ino"`
}

type sealRecord struct {
	DB  stamp `json:"db"`
	WAL stamp `json:"wal"` // zero when there is no WAL file
	// Writer is the PID of a process between the start of a write and its
	// seal (0 when none).
	Writer int `json:"writer,omitempty"`
	// Damaged is set when a change from outside was seen; it stays until the
	// file is verified or rebuilt, so no later writer seals over it.
	Damaged string `json:"damaged,omitempty"`
	// Schema is the schema the file was last prepared with (schemaKey): an
	// open that finds the file as sealed and this schema skips preparing it.
	Schema string `json:"schema,omitempty"`
}

func sealPath(db string) string { return db + ".seal" }

func stampOf(path string) stamp {
	st, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	s := stamp{Size: st.Size(), MtimeNS: st.ModTime().UnixNano()}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		s.Ino = int64(sys.Ino)
		s.CtimeNS = ctimeNS(sys)
	}
	return s
}

// stampsOf reads the stamps of a database and its WAL. An empty WAL carries
// nothing: SQLite creates one when a connection opens and removes it when the
// last one closes, so an empty and a missing WAL are the same. The WAL's
// change time is left out: SQLite changes the WAL's owner (to the database's)
// each time a connection opens it as root, which moves it.
func stampsOf(path string) (db, wal stamp) {
	db, wal = stampOf(path), stampOf(path+"-wal")
	wal.CtimeNS = 0
	if wal.Size == 0 {
		wal = stamp{}
	}
	return db, wal
}

func readSeal(path string) (sealRecord, bool) {
	var r sealRecord
	data, err := os.ReadFile(sealPath(path))
	if err != nil || json.Unmarshal(data, &r) != nil {
		return r, false
	}
	return r, true
}

// writeSeal replaces the seal atomically (readers see the old or the new one).
func writeSeal(path string, r sealRecord) error {
	data, _ := json.Marshal(r)
	tmp := fmt.Sprintf("%s.%d.tmp", sealPath(path), os.Getpid())
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("store: write seal: %w", err)
	}
	if err := os.Rename(tmp, sealPath(path)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store: write seal: %w", err)
	}
	return nil
}

// lockSeal takes the seal's flock (blocking: writers of one file take turns,
// as SQLite makes them do anyway).
func lockSeal(path string) (func(), error) {
	f, err := os.OpenFile(sealPath(path)+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: seal lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("store: seal lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// sealProblem says why a database file cannot be trusted as sealed ("" when
// it can). It does not change anything.
func sealProblem(path string) string {
	r, ok := readSeal(path)
	return problemOf(path, r, ok)
}

// problemOf is sealProblem for the seal r read (ok: there is one).
func problemOf(path string, r sealRecord, ok bool) string {
	if !ok {
		if _, err := os.Stat(path); err != nil {
			return "" // no database yet: nothing to trust or distrust
		}
		return "its seal is missing, so changes made outside Cairn cannot be ruled out"
	}
	if r.Damaged != "" {
		return r.Damaged
	}
	if r.Writer != 0 {
		// A live writer is changing it; a dead one left it as SQLite's atomic
		// commit guarantees (the next writer seals it again).
		return ""
	}
	db, wal := stampsOf(path)
	if db == r.DB && wal == r.WAL {
		return ""
	}
	return "the file was changed by another program since Cairn last wrote it"
}

// checkSeal reports a Damage when a database file cannot be trusted. A
// mismatch is read again once (a writer may have started in between) and
// then recorded in the seal, so that no later writer seals over it.
func checkSeal(db, path string) *Damage {
	why := sealProblem(path)
	if why == "" {
		return nil
	}
	unlock, err := lockSeal(path)
	if err != nil {
		return &Damage{DB: db, Reason: why, Suspect: true}
	}
	defer unlock()
	if why = sealProblem(path); why == "" {
		return nil
	}
	recordDamage(path, why)
	return &Damage{DB: db, Reason: why, Suspect: true}
}

// recordDamage writes why into the seal of a database file found untrusted,
// keeping the first reason recorded, so that no later writer seals over the
// damage. The caller holds the seal lock.
func recordDamage(path, why string) {
	r, _ := readSeal(path)
	if r.Damaged == "" {
		r.Damaged = why
		writeSeal(path, r)
	}
}

// sealBegin starts a write to one database file under its seal: it refuses
// to write into a file that cannot be trusted and marks the seal while the
// write runs. The returned end records the file's new stat data and releases
// the seal; it must be called exactly once (it is safe to call again).
func sealBegin(db, path string) (end func() error, err error) {
	unlock, err := lockSeal(path)
	if err != nil {
		return nil, err
	}
	r, ok := readSeal(path)
	if why := problemOf(path, r, ok); why != "" {
		recordDamage(path, why)
		unlock()
		return nil, &Damage{DB: db, Reason: why, Suspect: true}
	}
	r.Writer = os.Getpid()
	if err := writeSeal(path, r); err != nil {
		unlock()
		return nil, err
	}
	done := false
	return func() error {
		if done {
			return nil
		}
		done = true
		defer unlock()
		r.DB, r.WAL = stampsOf(path)
		r.Writer = 0
		return writeSeal(path, r)
	}, nil
}

// sealWrite runs one write under the seal (see sealBegin).
func sealWrite(db, path string, write func() error) error {
	end, err := sealBegin(db, path)
	if err != nil {
		return err
	}
	werr := write()
	if err := end(); err != nil && werr == nil {
		werr = err
	}
	return werr
}

// reseal records the file as it is now (after creating it, or after it was
// verified) and clears any damage mark. The caller holds the seal lock.
func reseal(path string) error { return resealPrepared(path, "") }

// resealPrepared reseals a file just prepared with a schema (its
// schemaKey).
func resealPrepared(path, schema string) error {
	r := sealRecord{Schema: schema}
	r.DB, r.WAL = stampsOf(path)
	return writeSeal(path, r)
}

// schemaKey names a schema text at a version.
func schemaKey(schema string, version int) string {
	sum := sha256.Sum256([]byte(schema))
	return strconv.Itoa(version) + ":" + hex.EncodeToString(sum[:])
}

// prepared reports whether a file whose seal r shows no problem is as
// Cairn last sealed it, with no write in progress, after being prepared
// with schema key: its version and tables are then known without opening
// it.
func prepared(r sealRecord, ok bool, problem, key string) bool {
	return ok && problem == "" && r.Schema == key && r.Writer == 0
}

func removeSeal(path string) {
	os.Remove(sealPath(path))
}
