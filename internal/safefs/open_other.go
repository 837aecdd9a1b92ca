//go:build !linux

package safefs

import "os"

// open opens rel beneath the root through os.Root's component-by-component walk.
func (r *Root) open(rel string, flags int) (*os.File, error) {
	return wrap(r.tree.OpenFile(rel, flags, 0))
}
