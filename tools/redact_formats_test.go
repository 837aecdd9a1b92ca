package tools

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestRedactKnownFormats: each format as its issuer documents it is hidden, with the text
// around it kept; look-alikes are left alone.
func TestRedactKnownFormats(t *testing.T) {
	pem := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"
	secrets := []struct{ name, text string }{
		{"openssh private key", pem},
		{"rsa private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"},
		{"pkcs8 private key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----"},
		{"encrypted private key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----"},
		{"pgp private key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----"},
		{"aws access key id", "AKIAIOSFODNN7EXAMPLE"},
		{"aws temporary key id", "ASIAIOSFODNN7EXAMPLE"},
		{"github classic token", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"},
		{"github oauth token", "gho_16C7e42F292c6912E7710c838347Ae178B4a"},
		{"github fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU"},
		{"gitlab personal token", "glpat-xxxxxxxxxxxxxxxxxxxx"},
		{"gitlab runner token", "glrt-t1_AbCdEfGhIjKlMnOpQrStU"},
		{"slack bot token", "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy"},
		{"slack user token", "xoxp-41242323-1234567890-0987654321-abcdef1234567890abcdef1234567890"},
		{"slack app token", "xapp-1-A0123456789-0123456789012-abcdef0123456789"},
		{"slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"},
		{"openai key", "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
		{"openai legacy key", "sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJAbCdEfGhIjKlMnOpQrSt"},
		{"anthropic key", "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-AbCdEfAA"},
	}
	for _, s := range secrets {
		got := NewRedactor().Redact("before " + s.text + " after")
		if strings.Contains(got, s.text) || !strings.Contains(got, "before [redacted] after") {
			t.Errorf("%s: got %q", s.name, got)
		}
	}
	named := NewRedactor().Redact("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n")
	if named != "aws_secret_access_key = [redacted]\n" {
		t.Errorf("aws secret access key: got %q", named)
	}
	if got := NewRedactor().Redact("key:\n" + pem[:60]); got != "key:\n[redacted]" {
		t.Errorf("a cut private key block: got %q", got)
	}
	plain := []string{
		"task-management-and-more-stuff-here", "AKIA is a prefix", "ghp_short", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
		"-----BEGIN CERTIFICATE-----", "commit 2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e", "risk-assessment-for-the-project-plan",
		"glpat-short", "xoxb-1", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	}
	for _, s := range plain {
		if got := NewRedactor().Redact(s); got != s {
			t.Errorf("%q was changed to %q", s, got)
		}
	}
}

// TestRedactBase64Forms: the bus token is hidden in base64, alone or inside a longer encoded
// value, in both alphabets and at every alignment.
func TestRedactBase64Forms(t *testing.T) {
	token := "tok-\xfb\xff0123456789abcdef" // bytes that encode to + and / in the standard alphabet
	r := NewRedactor(token)
	for _, prefix := range []string{"", "a", "ab", "Bearer ", "user:"} {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
			text := enc.EncodeToString([]byte(prefix + token + "!"))
			got := r.Redact("auth " + text)
			if !strings.Contains(got, redactedMark) {
				t.Errorf("prefix %q: %q not redacted: %q", prefix, text, got)
			}
		}
	}
}
