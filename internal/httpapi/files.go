package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/atomicfile"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lockfile"
)

// The state dir files of `cairn up`:
//   up.lock  flock held while a server runs (the kernel drops it when the
//            process dies), with its PID inside
//   port     JSON {"port": N, "pid": N} while the server listens
//   token    the bearer token, mode 0600, reused across runs

// PortFile is the content of <state dir>/port (DESIGN §6a).
type PortFile struct {
	Port int `json:"port"`
	PID  int `json:"pid"`
}

// ReadPortFile reads the port file of a state dir.
func ReadPortFile(stateDir string) (PortFile, error) {
	var pf PortFile
	b, err := os.ReadFile(filepath.Join(stateDir, "port"))
	if err != nil {
		return pf, err
	}
	err = json.Unmarshal(b, &pf)
	return pf, err
}

// Claim is the right to serve one repository over HTTP.
type Claim struct {
	stateDir string
	lock     *lockfile.Lock
	wrote    bool
}

// claimWait is how long a refused claim waits for the running server's port
// file (it may be starting at the same moment) or for its lock (a server
// that has just died may not have let go of it yet).
const claimWait = 2 * time.Second

// ClaimRepo makes sure no other `cairn up` serves the repository whose state
// lives in stateDir. A second server is refused with a CONFLICT error that
// names the running one (pid and port). A port file left by a server that
// died is stale (its lock is gone) and is replaced.
func ClaimRepo(stateDir string) (*Claim, error) {
	path := filepath.Join(stateDir, "up.lock")
	lock, owner, err := lockfile.TryLock(path)
	pf, perr := ReadPortFile(stateDir)
	for deadline := time.Now().Add(claimWait); err == lockfile.ErrLocked && (perr != nil || !lockfile.Alive(pf.PID)) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		lock, owner, err = lockfile.TryLock(path)
		pf, perr = ReadPortFile(stateDir)
	}
	if err == nil {
		return &Claim{stateDir: stateDir, lock: lock}, nil
	}
	if err != lockfile.ErrLocked {
		return nil, errs.Wrap(errs.Internal, err, "cannot take the server lock in %s", stateDir)
	}
	e := &errs.Error{Kind: errs.Conflict, Details: map[string]any{"pid": owner}}
	switch {
	case perr == nil && lockfile.Alive(pf.PID):
		e.Msg = fmt.Sprintf("cairn up is already running for this repository (pid %d, port %d, http://127.0.0.1:%d)", pf.PID, pf.Port, pf.Port)
		e.Details = map[string]any{"pid": pf.PID, "port": pf.Port}
		e.Fixes = []string{fmt.Sprintf("use the running server at http://127.0.0.1:%d/mcp", pf.Port), fmt.Sprintf("or stop it: kill %d", pf.PID)}
	default:
		e.Msg = fmt.Sprintf("cairn up is already running for this repository (pid %d, port not known yet)", owner)
		e.Fixes = []string{fmt.Sprintf("stop it: kill %d", owner)}
	}
	return nil, e
}

// WritePort records the port the server listens on, atomically.
func (c *Claim) WritePort(port int) error {
	b, _ := json.Marshal(PortFile{Port: port, PID: os.Getpid()})
	if err := atomicfile.Write(filepath.Join(c.stateDir, "port"), append(b, '\n'), 0o600); err != nil {
		return errs.Wrap(errs.Internal, err, "cannot write the port file")
	}
	c.wrote = true
	return nil
}

// Release removes the port file and gives up the claim.
func (c *Claim) Release() {
	if c == nil || c.lock == nil {
		return
	}
	if pf, err := ReadPortFile(c.stateDir); err == nil && pf.PID == os.Getpid() {
		os.Remove(filepath.Join(c.stateDir, "port"))
	}
	c.lock.Unlock()
	c.lock = nil
}

// LoadToken returns the bearer token of a state dir, creating it (random,
// mode 0600) on first use; an existing token is reused, its mode tightened.
func LoadToken(stateDir string) (string, error) {
	path := filepath.Join(stateDir, "token")
	if b, err := os.ReadFile(path); err == nil {
		if tok := strings.TrimSpace(string(b)); len(tok) >= 32 {
			if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
				os.Chmod(path, 0o600)
			}
			return tok, nil
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", errs.Wrap(errs.Internal, err, "cannot generate a token")
	}
	tok := hex.EncodeToString(raw[:])
	if err := atomicfile.Write(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", errs.Wrap(errs.Internal, err, "cannot write the token file")
	}
	return tok, nil
}

// TokenPath is where a state dir's token lives.
func TokenPath(stateDir string) string { return filepath.Join(stateDir, "token") }
