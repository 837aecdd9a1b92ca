package diagnose

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/troupe-dev/troupe/llm"
	"github.com/troupe-dev/troupe/store"
)

// ProbeTimeout bounds the endpoint probe.
const ProbeTimeout = 10 * time.Second

// Provider reports the provider keys in the environment, whether model opens, and — when an
// endpoint is named or probe is set — whether the endpoint answers (a free model list call).
func Provider(model, baseURL string, getenv func(string) string, probe bool) []Check {
	var out []Check
	for _, k := range llm.KeyVars() {
		if getenv(k) != "" {
			out = append(out, Check{Name: "key", Status: OK, Detail: k + " is set"})
		} else {
			out = append(out, Check{Name: "key", Status: Note, Detail: k + " is not set"})
		}
	}
	if model == "" {
		return append(out, Check{Name: "model", Status: Note, Detail: "no default model",
			Fix: "set model = \"provider/model\" in troupe.toml or ~/.config/troupe/config.toml, or pass --model"})
	}
	p, name, err := llm.Open(model, llm.Options{BaseURL: baseURL, Getenv: getenv})
	if err != nil {
		return append(out, Check{Name: "model", Status: Fail, Detail: err.Error()})
	}
	out = append(out, Check{Name: "model", Status: OK, Detail: model})
	if baseURL == "" && !probe {
		return out
	}
	// With an endpoint named (or --probe), ask it: a wrong URL or key shows here, not mid-run.
	ctx, cancel := context.WithTimeout(context.Background(), ProbeTimeout)
	defer cancel()
	where := baseURL
	if where == "" {
		where = "the provider's endpoint"
	}
	detail, err := llm.Probe(ctx, p, name)
	if err != nil {
		return append(out, Check{Name: "endpoint", Status: Fail, Detail: where + ": " + err.Error(),
			Fix: "is the server running at that URL (with /v1 for OpenAI-compatible servers)? is the key right?"})
	}
	return append(out, Check{Name: "endpoint", Status: OK, Detail: where + ": " + detail})
}

// StoreAt opens the store in dir (no node holds it) to see that it opens, and closes it.
func StoreAt(dir string) Check {
	st, err := store.Open(dir, slog.New(slog.DiscardHandler))
	switch {
	case errors.Is(err, store.ErrLocked):
		return Check{Name: "store", Status: Fail, Detail: err.Error(), Fix: "another troupe process holds it without a node.json: stop it"}
	case errors.Is(err, store.ErrDamaged):
		return Check{Name: "store", Status: Fail, Detail: err.Error(), Fix: "troupe doctor --repair backs it up and salvages what verifies"}
	case err != nil:
		return Check{Name: "store", Status: Fail, Detail: err.Error(), Fix: "check permissions of " + dir}
	}
	st.Close()
	return Check{Name: "store", Status: OK, Detail: dir}
}
