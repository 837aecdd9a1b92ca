package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise the module version.
var version = "dev"

func (m *Main) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print troupe's version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			v, rev := version, ""
			if info, ok := debug.ReadBuildInfo(); ok {
				if v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
					v = info.Main.Version
				}
				for _, s := range info.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						rev = " " + s.Value[:12]
					}
				}
			}
			fmt.Fprintf(m.Stdout, "troupe %s%s (%s %s/%s)\n", v, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
