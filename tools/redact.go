package tools

import (
	"sort"
	"strings"
)

// redactedMark replaces a secret value in what a tool returns.
const redactedMark = "[redacted]"

// minSecretLen is the shortest value redacted: shorter ones (placeholders such as a local
// server's dummy key) would blank out ordinary text.
const minSecretLen = 8

// Redactor replaces known secret values (the bus token, provider API keys), their base64
// forms, and known secret formats (redact_formats.go) in tool results, so a command that
// prints them (cat .troupe/node.json, env) never shows them to the model. The zero value
// redacts the known formats only. It is immutable once built and safe to share.
type Redactor struct {
	replacer *strings.Replacer
}

// NewRedactor redacts each of secrets at least minSecretLen bytes long.
func NewRedactor(secrets ...string) Redactor {
	var keep []string
	seen := map[string]bool{}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < minSecretLen || seen[s] {
			continue
		}
		seen[s] = true
		keep = append(keep, s)
		for _, enc := range base64Forms(s) {
			if !seen[enc] {
				seen[enc] = true
				keep = append(keep, enc)
			}
		}
	}
	if len(keep) == 0 {
		return Redactor{}
	}
	// Longest first: a secret that contains another is replaced whole.
	sort.Slice(keep, func(i, j int) bool { return len(keep[i]) > len(keep[j]) })
	pairs := make([]string, 0, 2*len(keep))
	for _, s := range keep {
		pairs = append(pairs, s, redactedMark)
	}
	return Redactor{replacer: strings.NewReplacer(pairs...)}
}

// Redact returns s with every secret and every known secret format replaced by [redacted].
func (r Redactor) Redact(s string) string {
	if r.replacer != nil {
		s = r.replacer.Replace(s)
	}
	return redactFormats(s)
}

// redactResult is the lifecycle's last word on a result: no secret leaves in its output.
func (e *Env) redactResult(res *Result) { res.Output = e.Secrets.Redact(res.Output) }

// SecretRedactor redacts the values of the environment variables names (as getenv reads them)
// and the literal values given.
func SecretRedactor(getenv func(string) string, names []string, values ...string) Redactor {
	for _, n := range names {
		values = append(values, getenv(n))
	}
	return NewRedactor(values...)
}
