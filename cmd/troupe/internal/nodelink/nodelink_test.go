package nodelink

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// A store that cannot be written is a setup error (exit 2), whatever wraps the cause.
func TestUnwritableStoreIsASetupError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("open store: %w", &os.PathError{Op: "mkdir", Path: ".troupe", Err: syscall.EACCES}), true},
		{fmt.Errorf("open store: %w", &os.PathError{Op: "open", Path: ".troupe/db", Err: syscall.EROFS}), true},
		{fmt.Errorf("badger: %w", fs.ErrPermission), true},
		{errors.New("store is damaged"), false},
		{fmt.Errorf("open: %w", syscall.ENOSPC), false},
	} {
		if got := unwritable(c.err); got != c.want {
			t.Errorf("unwritable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
