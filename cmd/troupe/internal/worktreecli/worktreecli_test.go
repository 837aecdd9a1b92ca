package worktreecli

import (
	"errors"
	"io"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
)

// A command line worktree cannot run is a usage error (exit 2), whatever the repository.
func TestABadCommandLineIsAUsageError(t *testing.T) {
	root := t.TempDir()
	for _, args := range [][]string{nil, {"frobnicate"}, {"list", "extra"}, {"merge"}} {
		var ee *clierr.Error
		if err := Run(io.Discard, root, args); !errors.As(err, &ee) || ee.Code != clierr.Usage {
			t.Errorf("worktree %q: %v, want a usage error", args, err)
		}
	}
}
