package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise it comes from the
// build info (the module version, and the commit when built from a checkout).
var version = ""

func (m *Main) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print troupe's version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			fmt.Fprintln(m.Stdout, versionString())
			return nil
		},
	}
}

// versionString is "troupe VERSION [COMMIT[+dirty]] (go… os/arch)".
func versionString() string {
	v, rev, dirty := version, "", ""
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
