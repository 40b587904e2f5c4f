package obs

import (
	"context"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/protocol"
)

// OneShotClient is the client a one-shot command's calls are recorded as
// (not "cli", which a server's calls made without a client are: a server
// adds to its totals only the rows other processes wrote).
const OneShotClient = "cli-oneshot"

// RecordOneShot adds the call of a process that does not serve (a CLI
// command run without a server) to the ledger in stateDir, so that the
// repository's totals of calls and tokens saved count it as they count a
// server's. anonymized leaves the error message out.
func RecordOneShot(ctx context.Context, stateDir, tool string, env *protocol.Envelope, start time.Time, anonymized bool) error {
	op := ledger.Operation{RequestID: env.Meta.RequestID, Client: OneShotClient, Time: start, Duration: time.Since(start), Type: tool,
		Success: env.Error == nil, RepoAfter: env.Provenance.RepoStateID, Tokens: env.Meta.Tokens, TokensSaved: env.Meta.TokensSaved}
	if env.Error != nil {
		op.ErrorCode = env.Error.Code
		if !anonymized {
			op.ErrorMessage = env.Error.Message
		}
	}
	return ledger.Append(ctx, ledger.Path(stateDir), op)
}
