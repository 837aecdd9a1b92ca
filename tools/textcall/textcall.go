// Package textcall recovers tool calls that a model wrote into its reply text instead of the
// provider's structured tool_calls field. Each format (Hermes, Qwen3-Coder, Mistral, DeepSeek,
// Kimi K2 and K3, GLM, gpt-oss harmony, Gemma, Llama, Liquid LFM, Phi-4's functools[…], JSON
// between a family's special tokens (Granite, Nemotron, Command, …), MiniMax's [TOOL_CALL] arrows, bare
// JSON, Python-call syntax, Cline's XML tags, fenced blocks, Gemini CLI's [tool_call: …] lines,
// harnesses' transcript records, ReAct and Qwen-Agent label lines, SWE-agent's DISCUSSION replies) has its own scanner in its own file; Parse runs them, keeps
// the non-overlapping matches and returns the calls in text order with the remaining prose.
//
// Every scanner moves forward through the text and never rescans it per candidate, so a reply
// costs time linear in its length whatever it holds. Nothing here panics on any input.
package textcall

import (
	"encoding/json"
	"html"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
)

// Format names the text convention a call was written in.
type Format string

// The formats Parse knows. Marker formats carry an explicit call token; FormatJSON and
// FormatPython do not, so they only count calls whose name Options.Known accepts.
const (
	FormatHermes       Format = "hermes"         // <tool_call>{"name":…,"arguments":…}</tool_call>
	FormatQwen3Coder   Format = "qwen3_coder"    // <function=NAME><parameter=K>v</parameter></function>
	FormatGLM          Format = "glm"            // <tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>
	FormatMistral      Format = "mistral"        // [TOOL_CALLS][…] or [TOOL_CALLS]NAME[ARGS]{…}
	FormatDeepSeek     Format = "deepseek"       // <｜tool▁call▁begin｜>…<｜tool▁sep｜>…<｜tool▁call▁end｜>
	FormatInvoke       Format = "invoke"         // <invoke name="N"><parameter name="K">v</parameter></invoke>
	FormatKimi         Format = "kimi"           // <|tool_call_begin|>functions.N:0<|tool_call_argument_begin|>{…}
	FormatHarmony      Format = "harmony"        // <|channel|>commentary to=functions.N <|constrain|>json<|message|>{…}<|call|>
	FormatGemma        Format = "gemma"          // <|tool_call>call:N{k:<|"|>v<|"|>}<tool_call|>, ```tool_code
	FormatLlama        Format = "llama"          // <|python_tag|>{…}, {"type":"function",…,"parameters":…}
	FormatLFM          Format = "lfm"            // <|tool_call_start|>[read_file(path="a.go")]<|tool_call_end|>
	FormatFenced       Format = "fenced"         // ```json / ```tool_call / ```xml holding another format
	FormatJSON         Format = "json"           // bare {"name":…,"arguments":…} objects and arrays
	FormatPython       Format = "python"         // read_file(path="a.go")
	FormatNamedJSON    Format = "named_json"     // read_file{"path": "a.go"}, or the name on the line above
	FormatBracketBlock Format = "bracket_block"  // bash (or [bash]) / ls -la / [/bash], each on its own line
	FormatXMLTag       Format = "xmltag"         // <read_file><path>a.go</path></read_file> (Cline, Roo Code)
	FormatTranscript   Format = "transcript"     // [Calling tool: NAME with arguments: {…}] (Hermes Agent's transcript line)
	FormatArrow        Format = "arrow"          // [TOOL_CALL]{tool => "NAME", args => { --k v }}[/TOOL_CALL] (MiniMax)
	FormatToolCallLine Format = "tool_call_line" // [tool_call: read_file for absolute_path 'a.go'] (Gemini CLI's prompt examples)
	FormatTagPair      Format = "tag_pair"       // <function-name>N</function-name><arguments>{…}</arguments>, name="N" arguments={…}
	FormatReAct        Format = "react"          // Action: N / Action Input: {…} (LangChain ReAct), ✿FUNCTION✿: N / ✿ARGS✿: {…} (Qwen-Agent)
	FormatAttrLine     Format = "attr_line"      // read_file path="a.go" (a name and key="value" pairs on their own line)
	FormatLabelLine    Format = "label_line"     // : Read Args :{…}, bash Arguments: {…} (a rendered call record)
	FormatContinue     Format = "continue"       // TOOL_NAME: N / BEGIN_ARG: k / v / END_ARG (Continue's form, its ```tool fence lost)
	FormatSWEAgent     Format = "swe_agent"      // DISCUSSION / … / ```ls -a``` (SWE-agent's thought and action), or under a COMMAND heading
)

// Call is one tool call found in text.
type Call struct {
	Name string // the tool name as written (name repair happens later, in tools/)
	// Args is a JSON object; "{}" when none. If the args text could not be made into JSON,
	// Raw holds it and Args is nil.
	Args   json.RawMessage
	Raw    string // the raw argument text as written (for repair and error messages)
	Format Format // which format matched
}

// Result is what Parse found.
type Result struct {
	Calls []Call
	// Prose is the text with the calls (and their wrapper tokens) removed, trimmed: it stays
	// the assistant's text.
	Prose string
	// Partial reports that the text ends inside an unterminated call (a reply cut off by the
	// output limit): the caller continues the reply instead of running it. The cut-off call is
	// not in Calls.
	Partial bool
}

// Options tune Parse. Known reports whether a name is (or repairs to) a tool the session has;
// formats that carry no explicit call marker (bare JSON, Python-call syntax) only count a call
// whose name is Known, so prose that merely mentions a tool is never a call. A nil Known
// knows no name: only marker formats are recovered. Prefer lists the formats to try first
// (from the model family's quirks), optional; marker formats still go before marker-less ones.
type Options struct {
	Known  func(name string) bool
	Prefer []Format
}

// span is a region of the text a scanner claims: the calls it holds, or wrapper tokens only.
type span struct {
	start, end int
	calls      []Call
	partial    bool // the region runs to the end of the text inside an unterminated call
}

// scanner is one format's parser: it returns non-overlapping spans sorted by start.
type scanner struct {
	format Format
	marked bool // the format has an explicit call marker
	scan   func(text string, sc scanCtx) []span
}

// scanCtx is what a scanner needs to judge a candidate.
type scanCtx struct {
	opt Options
	// inMarker is set when the text being scanned already sits inside an explicit call
	// marker (a ```tool_call fence, <|python_tag|>), so marker-less shapes need no Known name.
	inMarker bool
}

// accepts reports whether a marker-less candidate named name counts as a call.
func (sc scanCtx) accepts(name string) bool {
	if name == "" {
		return false
	}
	return sc.inMarker || (sc.opt.Known != nil && sc.opt.Known(name))
}

// scanners lists every format in default order: marker formats, most specific first.
func scanners() []scanner {
	return []scanner{
		{FormatFenced, true, scanFenced}, // first: it owns the markers written inside a fence
		{FormatHarmony, true, scanHarmony},
		{FormatKimi, true, scanKimi},
		{FormatKimiK3, true, scanKimiK3},
		{FormatDeepSeek, true, scanDeepSeek},
		{FormatMistral, true, scanMistral},
		{FormatGemma, true, scanGemma},
		{FormatHermes, true, scanHermes},
		{FormatTagPair, true, scanAttrTags}, // its marker-less forms check Known themselves
		{FormatContinue, true, scanContinueLines},
		{FormatQwen3Coder, true, scanQwen3Coder},
		{FormatQwen3Coder, true, scanQwenParamNamed}, // its names must be Known outside <tool_call>
		{FormatGLM, true, scanGLMOrphans},
		{FormatTranscript, true, scanTranscript},
		{FormatTranscript, true, scanTranscriptLines},
		{FormatArrow, true, scanArrow},
		{FormatToolCallLine, true, scanToolCallLines},
		{FormatInvoke, true, scanInvoke},
		{FormatInvoke, true, scanInvokeLines}, // after scanInvoke: its <function_calls> blocks go first
		{FormatLlama, true, scanLlama},
		{FormatLFM, true, scanLFM},
		{FormatFunctools, true, scanFunctools},
		{FormatTokenJSON, true, scanTokenJSON},
		{FormatReAct, true, scanQwenAgent},
		{FormatSWEAgent, true, scanSWEAgent},
		{FormatJSON, false, scanBareJSON},
		{FormatPython, false, scanPython},
		{FormatNamedJSON, false, scanNamedJSON},
		{FormatGemma, false, scanGemmaBare},
		{FormatBracketBlock, false, scanBracketBlocks},
		{FormatTagPair, false, scanTagPairs}, // before xmltag: <tool>N</tool> is not a call to "tool"
		{FormatTagPair, false, scanAttributes},
		{FormatTagPair, false, scanFused},
		{FormatAttrLine, false, scanAttrLines},
		{FormatLabelLine, false, scanLabelLines},
		{FormatXMLTag, false, scanXMLTag},
		{FormatXMLTag, false, scanMangledXMLTag},
		{FormatInvoke, false, scanBareInvoke},
		{FormatReAct, false, scanReAct},
	}
}

// ordered returns the scanners with the preferred formats moved to the front of their class.
func ordered(prefer []Format) []scanner {
	all := scanners()
	home := make(map[Format]int, len(all))
	for i, s := range all {
		home[s.format] = i
	}
	rank := func(s scanner) int {
		class := 0
		if !s.marked {
			class = 1 << 16
		}
		if i := slices.Index(prefer, s.format); i >= 0 {
			return class + i
		}
		return class + len(prefer) + home[s.format]
	}
	slices.SortStableFunc(all, func(a, b scanner) int { return rank(a) - rank(b) })
	return all
}

// Parse finds the tool calls written in text.
func Parse(text string, opt Options) Result {
	if strings.Contains(text, "<|reserved_") {
		text = blankPlaceholders(text)
	}
	if strings.Contains(text, "&lt;") {
		text = unescapeMarkup(text)
	}
	if strings.Contains(text, "DSML") {
		text = restoreDSMLLines(text)
	}
	spans := claim(text, scanCtx{opt: opt}, ordered(opt.Prefer))
	return assemble(text, absorbEndTokens(text, spans))
}

// placeholderToken is a special token a server rendered as its placeholder name
// (<|reserved_token_12|>, Llama 3's <|reserved_special_token_5|>) around or inside a known
// call syntax. It carries no text the model meant.
var placeholderToken = lazyre.New(`<\|reserved_(?:special_)?token_[0-9]{1,6}\|>`)

// endTokens are chat-template end-of-turn tokens models leak after a call; they go with it.
var endTokens = []string{"<|im_end|>", "<|eot_id|>", "<|eom_id|>", "<|eot|>", "<|eom|>", "<|end|>", "<|endoftext|>", "</s>", "<｜end▁of▁sentence｜>", "<end_of_turn>", "<turn|>", "<|end_of_text|>", "<|END_OF_TURN_TOKEN|>"}

// absorbEndTokens extends each call span over end-of-turn tokens that directly follow it.
func absorbEndTokens(text string, spans []span) []span {
	for i := range spans {
		if len(spans[i].calls) == 0 {
			continue
		}
		limit := len(text)
		if i+1 < len(spans) {
			limit = spans[i+1].start
		}
		for extended := true; extended; {
			extended = false
			j := skipSpace(text, spans[i].end)
			for _, tok := range endTokens {
				if j+len(tok) <= limit && strings.HasPrefix(text[j:], tok) {
					spans[i].end, extended = j+len(tok), true
					break
				}
			}
		}
	}
	return spans
}

// claim runs the scanners in order; a later scanner's span is kept only where no earlier
// scanner claimed the text.
func claim(text string, sc scanCtx, order []scanner) []span {
	var taken []span
	for _, s := range order {
		taken = mergeFree(taken, s.scan(text, sc))
	}
	return taken
}

// mergeFree merges the sorted candidates into the sorted taken spans, dropping every candidate
// that overlaps a taken span. It runs in linear time.
func mergeFree(taken, candidates []span) []span {
	if len(candidates) == 0 {
		return taken
	}
	out := make([]span, 0, len(taken)+len(candidates))
	i := 0
	for _, c := range candidates {
		for i < len(taken) && taken[i].end <= c.start {
			out = append(out, taken[i])
			i++
		}
		if i < len(taken) && taken[i].start < c.end {
			continue
		}
		out = append(out, c)
	}
	return append(out, taken[i:]...)
}

// assemble turns the claimed spans into a Result.
func assemble(text string, spans []span) Result {
	var res Result
	var prose strings.Builder
	at := 0
	for _, s := range spans {
		prose.WriteString(text[at:s.start])
		at = s.end
		if s.partial {
			res.Partial = true
			continue
		}
		res.Calls = append(res.Calls, s.calls...)
	}
	if len(res.Calls) > 0 {
		res.Calls = expandParallel(res.Calls)
	}
	prose.WriteString(text[at:])
	res.Prose = collapseBlankLines(strings.TrimSpace(prose.String()))
	return res
}

// collapseBlankLines turns the runs of empty lines left where calls were cut out into one
// empty line.
func collapseBlankLines(s string) string {
	if !strings.Contains(s, "\n\n\n") {
		return s
	}
	var b strings.Builder
	newlines := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			newlines++
			if newlines <= 2 {
				b.WriteByte('\n')
			}
			continue
		case ' ', '\t', '\r':
			if newlines > 0 {
				continue // blanks on an empty line
			}
		}
		newlines = 0
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeMarkup decodes a reply whose call markup arrived escaped as HTML entities
// (&lt;tool_call&gt;, &lt;function=…&gt;, &lt;|tool_call&gt;: a client or proxy escaped the
// model's text for display) when decoding yields a call marker the text did not hold; any
// other text is returned as it is.
func unescapeMarkup(text string) string {
	decoded := html.UnescapeString(text)
	for _, tok := range attemptTokens {
		if strings.HasPrefix(tok, "<") && strings.Contains(decoded, tok) && !strings.Contains(text, tok) {
			return decoded
		}
	}
	return text
}

// blankPlaceholders turns every placeholder token into one space, so the call syntax around it
// reads as if the token were not there:
// read_file<|reserved_token_6|>{"path": "a.go"} is a name and its object.
func blankPlaceholders(text string) string {
	return placeholderToken.ReplaceAllStringFunc(text, func(string) string { return " " })
}
