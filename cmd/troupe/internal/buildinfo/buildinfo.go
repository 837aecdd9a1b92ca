// Package buildinfo says which troupe this is: its version, commit and Go toolchain.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is set at build time with -ldflags
// "-X github.com/troupe-dev/troupe/cmd/troupe/internal/buildinfo.Version=…"; otherwise it comes
// from the build info (the module version, and the commit when built from a checkout).
var Version = ""

// String is "troupe VERSION [COMMIT[+dirty]] (go… os/arch)".
func String() string {
	v, rev, dirty := Version, "", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				rev = " " + s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "+dirty"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	if rev != "" {
		rev += dirty
	}
	return fmt.Sprintf("troupe %s%s (%s %s/%s)", v, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
