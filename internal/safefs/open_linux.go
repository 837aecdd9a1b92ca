package safefs

import (
	"errors"
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// openat2Missing records that this kernel has no openat2 (ENOSYS), found on first use: a
// fact about the running kernel, the same for every Root in the process.
var openat2Missing atomic.Bool

// openat2Retries bounds retries of EAGAIN, which openat2 returns when a rename raced with a
// RESOLVE_BENEATH lookup.
const openat2Retries = 8

// open opens rel beneath the root in one kernel call when openat2 exists, else through os.Root.
func (r *Root) open(rel string, flags int) (*os.File, error) {
	if !openat2Missing.Load() {
		how := unix.OpenHow{
			Flags:   uint64(flags | unix.O_CLOEXEC),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
		}
		for range openat2Retries {
			fd, err := unix.Openat2(int(r.dir.Fd()), rel, &how)
			switch {
			case err == nil:
				return os.NewFile(uintptr(fd), r.Name()+"/"+rel), nil
			case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
				continue
			case errors.Is(err, unix.ENOSYS):
				openat2Missing.Store(true)
			case errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ELOOP):
				// EXDEV: the path left the root; ELOOP: a magic link (or a loop), refused too.
				return nil, &os.PathError{Op: "open", Path: rel, Err: ErrOutside}
			default:
				return nil, &os.PathError{Op: "open", Path: rel, Err: err}
			}
			break
		}
	}
	return wrap(r.tree.OpenFile(rel, flags, 0))
}
