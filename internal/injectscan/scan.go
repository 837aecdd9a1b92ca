// Package injectscan refuses text that would act on an agent rather than inform it. What the
// memory tool saves enters every later session's system prompt verbatim, so it is a durable
// injection surface: before anything is stored it is scanned for prompt-injection phrasing,
// invisible or bidirectional Unicode, and instructions to send data somewhere or run fetched
// code. The scan is a fixed list of patterns: cheap, offline, and explainable in one line.
package injectscan

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/textfmt"
)

// Kind names the family of a finding.
type Kind string

// The kinds of finding.
const (
	KindInjection Kind = "prompt_injection" // phrasing that tries to override the agent's instructions or identity
	KindHidden    Kind = "hidden_unicode"   // invisible, bidi-control or tag characters
	KindExfil     Kind = "exfiltration"     // sending data somewhere, or running fetched code
)

// Finding is why a text was refused: its kind, a reason a person can read, and the part that
// matched (quoted in the reason; for hidden characters, their code points).
type Finding struct {
	Kind   Kind
	Reason string
	Match  string
}

func (f Finding) String() string { return fmt.Sprintf("%s: %s", f.Kind, f.Reason) }

// rule is one pattern and what it means.
type rule struct {
	kind  Kind
	why   string
	re    *lazyre.Regexp
	cased bool // matched against the text as written (curl's -F is not its -f)
	// needles are words of which every match of re holds at least one (lowercase): the rule's
	// regexp runs only when the text has one, which keeps a scan of plain facts cheap.
	needles []string
}

// Patterns run over the text lowercased (unless cased) with its whitespace collapsed
// (normalize).
var rules = []rule{
	// Overriding what the agent was told.
	{KindInjection, "it tells the agent to ignore or replace its instructions",
		lazyre.New(`\b(ignore|disregard|forget|override|bypass|drop|abandon)\b( all| any| every| of)?( the| your| my| these| those)? (previous|prior|above|earlier|preceding|former|original|existing|system|safety|initial|old)( \w+)? (instructions?|prompts?|rules|directions|directives|guidelines|guidance|constraints|context|messages?|orders)\b`), false, []string{"ignore", "disregard", "forget", "override", "bypass", "drop", "abandon"}},
	{KindInjection, "it tells the agent to ignore or replace its instructions",
		lazyre.New(`\b(ignore|disregard|forget) (everything|all) (you were|you've been|you have been|i) (told|said|instructed|given)\b`), false, []string{"ignore", "disregard", "forget"}},
	{KindInjection, "it announces new instructions for the agent",
		lazyre.New(`\b(new|updated|real|actual|true|hidden|secret) (system )?(instructions|directives|rules|prompt)( are)? ?:`), false, []string{"instruction", "directive", "rules", "prompt"}},
	{KindInjection, "it reassigns the agent's identity or role",
		lazyre.New(`\b(you are now|from now on,? you are|you are no longer|you will now act|your new (role|identity|persona|instructions|task) (is|are)|act as (an? )?(unrestricted|unfiltered|jailbroken|evil|different)|pretend (to be|you are) (an? )?(different|unrestricted|unfiltered|jailbroken|evil|new)|roleplay as|role-play as)\b`), false, []string{"you", "act", "pretend", "roleplay", "role-play"}},
	{KindInjection, "it is a jailbreak phrase",
		lazyre.New(`\b(jailbreak|jailbroken|dan mode|developer mode (enabled|on|activated)|do anything now|no longer bound by)\b`), false, []string{"jailbr", "dan", "developer", "anything", "bound"}},
	{KindInjection, "it impersonates a system, developer or chat-template message",
		lazyre.New(`(<\|?(im_start|im_end|system|endoftext|start_header_id)\|?>|\[/?inst\]|<</?sys>>|</?system>|\[system\]|\[system (message|note|override)\]|(^| )#+ ?system ?:|(^|[.!?] )(system|developer|admin|administrator) (override|message|notice|instruction|prompt|update) ?:)`), false, []string{"system", "developer", "admin", "inst]", "sys>>", "im_start", "im_end", "endoftext", "start_header_id"}},
	{KindInjection, "it asks the agent to hide something from the user",
		lazyre.New(`\b(do not|don't|never) (tell|inform|mention (this |it )?to|show|reveal (this |it )?to|alert|notify) (the )?user\b|\bwithout (telling|informing|notifying|asking) (the )?user\b|\bhide (this|it) from (the )?user\b|\bkeep (this|it) (secret|hidden) from (the )?user\b`), false, []string{"user"}},
	{KindInjection, "it asks the agent to reveal its system prompt",
		lazyre.New(`\b(reveal|print|repeat|output|leak|dump|show) (me )?(your|the) (full |entire |whole )?(system prompt|system message|hidden instructions|initial instructions)\b`), false, []string{"system", "hidden", "initial"}},
	{KindInjection, "it tells the agent to turn off its safeguards",
		lazyre.New(`\b(disable|turn off|bypass|circumvent|skip|ignore) (the |all |any |your )?(sandbox|safety|security|permission|approval|guard ?rails?|content polic(y|ies)|filters?)( (checks?|prompts?|rules|mode|restrictions?))?\b( (and|to|so|before|when|always))`), false, []string{"disable", "turn", "bypass", "circumvent", "skip", "ignore"}},

	// Running fetched code.
	{KindExfil, "it pipes a download into a shell or interpreter",
		lazyre.New(`\b(curl|wget|fetch|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^|;&\n]*\| ?(sudo )?(ba|z|k|da|fi)?sh\b|\b(curl|wget|iwr|irm)\b[^|;&\n]*\| ?(sudo )?(python3?|perl|ruby|node|php|iex|invoke-expression)\b`), false, []string{"curl", "wget", "fetch", "iwr", "invoke-", "irm"}},
	{KindExfil, "it runs code fetched from the network",
		lazyre.New(`\b(ba|z)?sh (-c )?["']?(<\(|\$\() ?(curl|wget)\b|\beval ["']?\$\( ?(curl|wget)\b|\bsource <\( ?(curl|wget)\b|\bpython3? -c ["'][^"']*(urllib|requests|socket)`), false, []string{"curl", "wget", "python"}},
	{KindExfil, "it decodes and runs hidden code",
		lazyre.New(`\bbase64 (-d|--decode|-di)\b[^;&\n]*\| ?(sudo )?(ba|z)?sh\b|\b(powershell|pwsh)(\.exe)? [^\n]*-(e|enc|encodedcommand)\b`), false, []string{"base64", "powershell", "pwsh"}},
	{KindExfil, "it opens a reverse shell or raw network channel",
		lazyre.New(`/dev/(tcp|udp)/|\b(nc|ncat|netcat)\b[^\n]* -(e|c)\b|\bsocat\b[^\n]*\bexec:|\bmkfifo\b[^\n]*\b(nc|ncat|netcat)\b`), false, []string{"/dev/", "nc", "netcat", "socat", "mkfifo"}},

	// Sending data out.
	{KindExfil, "it uploads a file with a network tool", lazyre.New(`\bcurl\b[^\n|;]*( -F| -T) ?[@"']?[^\n]*(https?://|\b\d{1,3}(\.\d{1,3}){3}\b)`), true, []string{"curl"}},
	{KindExfil, "it uploads data with a network tool",
		lazyre.New(`\b(curl|wget)\b[^\n|;]*( -d| --data(-binary|-raw|-urlencode)?| --form| --upload-file| --post-(data|file)) ?[=@"']?[^\n]*https?://|\b(curl|wget)\b[^\n|;]*https?://[^\s]*[^\n|;]*( -d| --data(-binary|-raw|-urlencode)?| --form| --upload-file| --post-(data|file))\b`), false, []string{"curl", "wget"}},
	{KindExfil, "it sends secrets or credentials somewhere",
		lazyre.New(`\b(send|post|upload|exfiltrate|forward|transmit|leak|e-?mail|share|copy|paste|submit|report|pipe)\b[^\n]{0,80}\b(api[ _-]?keys?|tokens?|secrets?|passwords?|credentials?|private keys?|ssh keys?|env(ironment)? (vars?|variables)|\.env\b|id_rsa|id_ed25519|cookies?|session ids?)\b[^\n]{0,80}\b(to|into|at|via)\b`), false, []string{"send", "post", "upload", "exfiltrate", "forward", "transmit", "leak", "mail", "share", "copy", "paste", "submit", "report", "pipe"}},
	{KindExfil, "it sends data to an outside address",
		lazyre.New(`\b(send|post|upload|exfiltrate|forward|transmit|leak|e-?mail|submit|beacon|ping back)\b[^\n]{0,80}\b(to|into|at|via)\b[^\n]{0,20}(https?://|webhooks?\b|pastebin|requestbin|ngrok|webhook\.site|burpcollaborator|interact\.sh|[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b)`), false, []string{"send", "post", "upload", "exfiltrate", "forward", "transmit", "leak", "mail", "submit", "beacon", "ping"}},
	{KindExfil, "it reads credential files into a network command",
		lazyre.New(`(~/\.ssh|id_rsa|id_ed25519|\.aws/credentials|\.netrc|\.git-credentials|\.npmrc|\.pypirc|/etc/shadow|\benv\b|\bprintenv\b)[^\n]{0,80}\| ?(curl|wget|nc|ncat|netcat|scp|ssh)\b|\b(curl|wget|scp|rsync)\b[^\n]{0,80}(~/\.ssh|id_rsa|id_ed25519|\.aws/credentials|\.netrc|\.git-credentials|/etc/shadow)`), false, []string{"curl", "wget", "nc", "scp", "rsync", "ssh", "netcat"}},
}

// Scan returns the first reason to refuse text, or ok=false when it may be stored.
func Scan(text string) (Finding, bool) {
	if f, ok := hidden(text); ok {
		return f, true
	}
	cased := normalize(text)
	lower := strings.ToLower(cased)
	for _, r := range rules {
		if !slices.ContainsFunc(r.needles, func(n string) bool { return strings.Contains(lower, n) }) {
			continue
		}
		in := lower
		if r.cased {
			in = cased
		}
		if loc := r.re.FindStringIndex(in); loc != nil {
			m := strings.TrimSpace(in[loc[0]:loc[1]])
			return Finding{Kind: r.kind, Reason: fmt.Sprintf("%s (%q)", r.why, textfmt.ClipRunes(m, 81)), Match: m}, true
		}
	}
	return Finding{}, false
}

// normalize collapses each run of whitespace, line breaks included, to one space, so a line
// break or a double space does not split a phrase.
func normalize(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// hidden finds a character a reader would not see that changes what the text says: format
// characters (zero-width spaces and joiners, bidi embeddings, overrides and isolates, the BOM,
// the soft hyphen, tag characters), control characters other than tab and line breaks, the
// variation selectors of the supplement (used to smuggle bytes), and the invisible fillers
// some fonts draw as nothing. A zero-width joiner between two pictographs (an emoji sequence)
// and the emoji variation selectors are left alone.
func hidden(text string) (Finding, bool) {
	rs := []rune(text)
	for i, r := range rs {
		if !invisible(r) {
			continue
		}
		if r == '\u200d' && i > 0 && i+1 < len(rs) && pictographic(rs[i-1]) && pictographic(rs[i+1]) {
			continue
		}
		return Finding{Kind: KindHidden, Match: fmt.Sprintf("U+%04X", r),
			Reason: fmt.Sprintf("it holds an invisible or direction-changing character (U+%04X %s) at character %d", r, hiddenName(r), i+1)}, true
	}
	return Finding{}, false
}

func invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Cc, r):
		return true
	case r >= 0xE0100 && r <= 0xE01EF: // variation selectors supplement
		return true
	case r == 0x115F || r == 0x1160 || r == 0x3164 || r == 0xFFA0 || r == 0x2800 || r == 0x034F:
		return true // Hangul fillers, the braille blank, the grapheme joiner
	}
	return false
}

// pictographic is a rough test for the characters emoji sequences join: symbols, and the
// variation selector that makes one an emoji.
func pictographic(r rune) bool {
	return unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) || r == 0xFE0F || (r >= 0x1F000 && r <= 0x1FAFF)
}

func hiddenName(r rune) string {
	switch {
	case r >= 0x200B && r <= 0x200D, r == 0x2060, r == 0xFEFF:
		return "zero-width"
	case r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x061C:
		return "bidi control"
	case r >= 0xE0000 && r <= 0xE007F:
		return "tag character"
	case r >= 0xE0100 && r <= 0xE01EF:
		return "variation selector"
	case unicode.Is(unicode.Cc, r):
		return "control character"
	case r == 0x00AD:
		return "soft hyphen"
	}
	return "invisible"
}
