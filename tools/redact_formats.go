package tools

import (
	"encoding/base64"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Known secret formats are redacted from every tool result beside the configured secrets
// (redact.go), so a key a command finds (a .env in the repository, a CI variable in env's
// output) never reaches the model. Each format is taken from its issuer's documentation and
// kept narrow: a prefix the issuer reserved, then the token's alphabet and length, so ordinary
// text is left alone. A full rule set (gitleaks' is 200 rules plus its engine) was more
// weight than these few formats need.
var secretFormats = []struct {
	name     string
	re       *lazyre.Regexp
	keepName bool // the first group names the secret and stays: aws_secret_access_key=[redacted]
}{
	// PEM and OpenSSH private keys (RFC 7468), through the END line or to the end of a cut
	// output.
	{"private key", lazyre.New(`-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END[A-Z0-9 ]{0,40} PRIVATE KEY( BLOCK)?-----|\z)`), false},
	// AWS access key IDs (IAM "unique identifier" prefixes), and a secret access key where it is
	// named (40 base64 characters alone are too common to match on their own).
	{"aws access key id", lazyre.New(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`), false},
	{"aws secret access key", lazyre.New(`(?i)(aws_?secret_?access_?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+]{40}\b`), true},
	// GitHub tokens: ghp_ (classic), gho_, ghu_, ghs_, ghr_, and fine-grained github_pat_.
	{"github token", lazyre.New(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), false},
	// GitLab tokens by prefix: personal, deploy, runner, pipeline trigger, feed, CI job and more.
	{"gitlab token", lazyre.New(`\bgl(?:pat|dt|rt|ptt|ft|imt|agent|soat|cbt|oas|ffct)-[A-Za-z0-9_\-]{20,}`), false},
	// Slack bot, user, app-level and configuration tokens, and incoming-webhook URLs.
	{"slack token", lazyre.New(`\bxox[abeoprs]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}`), false},
	{"slack webhook", lazyre.New(`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}`), false},
	// Anthropic (sk-ant-api03-…, sk-ant-admin01-…) and OpenAI (sk-…, sk-proj-…, sk-svcacct-…)
	// API keys.
	{"api key", lazyre.New(`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), false},
}

// redactFormats replaces every known secret format in s.
func redactFormats(s string) string {
	for _, f := range secretFormats {
		if !f.re.MatchString(s) {
			continue
		}
		if f.keepName {
			s = f.re.ReplaceAllString(s, "${1}"+redactedMark)
			continue
		}
		s = f.re.ReplaceAllLiteralString(s, redactedMark)
	}
	return s
}

// base64Forms are the spellings secret takes inside base64 text (standard and URL alphabets),
// at each of the three byte alignments it can start at: only the characters that depend on
// the secret alone, so an encoded "Bearer "+secret or user:secret shows it too.
func base64Forms(secret string) []string {
	var out []string
	for k := 0; k < 3; k++ {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x00", k) + secret))
		start, end := (8*k+5)/6, 8*(k+len(secret))/6
		if end-start < minSecretLen {
			continue
		}
		core := enc[start:end]
		out = append(out, core)
		if url := strings.NewReplacer("+", "-", "/", "_").Replace(core); url != core {
			out = append(out, url)
		}
	}
	return out
}
