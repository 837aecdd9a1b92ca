package setup

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/config"
)

func usage(t *testing.T, what string, err error, want string) {
	t.Helper()
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != clierr.Usage || !strings.Contains(ce.Msg, want) {
		t.Errorf("%s: %v, want a usage error with %q", what, err, want)
	}
}

func TestLoadAppliesAndChecksFlags(t *testing.T) {
	root := t.TempDir()
	noEnv := func(string) string { return "" }
	_, err := Load(root, noEnv, &bytes.Buffer{}, &Flags{MaxTurns: -1})
	usage(t, "negative --max-turns", err, "--max-turns -1")
	_, err = Load(root, noEnv, &bytes.Buffer{}, &Flags{Overrides: config.Overrides{Mode: "reckless"}})
	usage(t, "unknown --mode", err, "reckless")
	cfg, err := Load(root, noEnv, &bytes.Buffer{}, &Flags{Overrides: config.Overrides{Model: "ollama/qwen2.5-coder", Mode: "plan"}})
	if err != nil || cfg.Model != "ollama/qwen2.5-coder" || cfg.Mode != "plan" {
		t.Errorf("flags not applied: %+v, %v", cfg, err)
	}
	if cfg, err := Load(root, noEnv, &bytes.Buffer{}, nil); err != nil || cfg.Mode == "plan" {
		t.Errorf("no flags: %+v, %v", cfg, err)
	}
}

func TestCheckModelWithoutModel(t *testing.T) {
	_, err := CheckModel("", "", func(string) string { return "" })
	usage(t, "no model", err, "no model: pass --model")
	usage(t, "no model", err, "troupe config --init")
	_, err = CheckModel("", "", func(k string) string {
		if k == "DEEPSEEK_API_KEY" {
			return "sk-x"
		}
		return ""
	})
	usage(t, "no model, a key set", err, "DEEPSEEK_API_KEY is set, so e.g. --model deepseek/deepseek-chat")
}
