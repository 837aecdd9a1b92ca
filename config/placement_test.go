package config

import (
	"strings"
	"testing"
)

// [agents] placement comes from the file, TROUPE_PLACEMENT or --placement, later layers winning;
// a value that is no placement is refused naming its layer.
func TestPlacementLayers(t *testing.T) {
	project := writeFile(t, "troupe.toml", "[agents]\nplacement = \"auto\"\n")
	tests := []struct {
		name, env, flag string
		want, origin    string
		wantErr         string
	}{
		{name: "default", want: "local", origin: "default"},
		{name: "file", want: "auto", origin: project},
		{name: "env over file", env: "workers", want: "workers", origin: "env TROUPE_PLACEMENT"},
		{name: "flag over env", env: "workers", flag: "local", want: "local", origin: "flag --placement"},
		{name: "bad flag", flag: "cloud", wantErr: `agents.placement (from flag --placement): "cloud" is not a placement; want one of local, workers, auto`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := LoadOptions{Getenv: envOf(map[string]string{"TROUPE_PLACEMENT": tt.env})}
			if tt.name != "default" {
				opts.ProjectFile = project
			}
			c, err := Load(opts)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			c.Apply(Overrides{Placement: tt.flag})
			err = c.Validate()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Validate = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if c.Agents.Placement != tt.want || c.Origin("Agents.Placement") != tt.origin {
				t.Errorf("placement %q from %q, want %q from %q", c.Agents.Placement, c.Origin("Agents.Placement"), tt.want, tt.origin)
			}
		})
	}
}
