package textcall

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedGoldens adds the golden replies whose file names start with prefix as fuzz seeds.
func seedGoldens(f *testing.F, prefixes ...string) {
	for _, p := range prefixes {
		files, _ := filepath.Glob(filepath.Join("testdata", "golden", p+"*.txt"))
		for _, file := range files {
			text, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(text))
		}
	}
}

// checkSpans asserts what every scanner promises: spans in bounds, sorted, non-overlapping,
// and every call's Args either nil or a JSON object.
func checkSpans(t *testing.T, text string, spans []span) {
	t.Helper()
	prev := 0
	for _, s := range spans {
		if s.start < prev || s.end < s.start || s.end > len(text) {
			t.Fatalf("span [%d,%d) out of order or bounds (prev end %d, len %d)", s.start, s.end, prev, len(text))
		}
		prev = s.end
		for _, c := range s.calls {
			checkCall(t, c)
		}
	}
}

func checkCall(t *testing.T, c Call) {
	t.Helper()
	if c.Format == "" {
		t.Fatalf("call %q has no format", c.Name)
	}
	if c.Args == nil {
		return
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(c.Args, &obj); err != nil {
		t.Fatalf("call %q args %q are not a JSON object: %v", c.Name, c.Args, err)
	}
}

// fuzzScanner fuzzes one format's scanner, in and out of a marker context.
func fuzzScanner(f *testing.F, scan func(string, scanCtx) []span, prefixes ...string) {
	seedGoldens(f, prefixes...)
	f.Fuzz(func(t *testing.T, text string) {
		for _, sc := range []scanCtx{{opt: knownOpts()}, {opt: knownOpts(), inMarker: true}} {
			checkSpans(t, text, scan(text, sc))
		}
	})
}

func FuzzParse(f *testing.F) {
	seedGoldens(f, "")
	f.Fuzz(func(t *testing.T, text string) {
		res := Parse(text, knownOpts())
		for _, c := range res.Calls {
			checkCall(t, c)
		}
		if len(res.Prose) > len(text) {
			t.Fatalf("prose longer than the text: %d > %d", len(res.Prose), len(text))
		}
		if len(res.Calls) > 0 && res.Prose == strings.TrimSpace(text) {
			t.Fatalf("calls found but nothing removed from the prose")
		}
		again := Parse(text, knownOpts())
		if len(again.Calls) != len(res.Calls) || again.Prose != res.Prose || again.Partial != res.Partial {
			t.Fatalf("Parse is not deterministic")
		}
		_ = Looks(text)
	})
}

func FuzzGLMOrphans(f *testing.F)     { fuzzScanner(f, scanGLMOrphans, "glm") }
func FuzzHermes(f *testing.F)         { fuzzScanner(f, scanHermes, "hermes", "glm", "qwen3coder_basic") }
func FuzzQwen3Coder(f *testing.F)     { fuzzScanner(f, scanQwen3Coder, "qwen3coder", "llama_function") }
func FuzzQwenParamNamed(f *testing.F) { fuzzScanner(f, scanQwenParamNamed, "qwen3coder") }
func FuzzMistral(f *testing.F)        { fuzzScanner(f, scanMistral, "mistral") }
func FuzzDeepSeek(f *testing.F)       { fuzzScanner(f, scanDeepSeek, "deepseek") }
func FuzzInvoke(f *testing.F)         { fuzzScanner(f, scanInvoke, "invoke") }
func FuzzInvokeLines(f *testing.F)    { fuzzScanner(f, scanInvokeLines, "invoke_line") }
func FuzzToolCallLines(f *testing.F)  { fuzzScanner(f, scanToolCallLines, "tool_call_line") }
func FuzzArrow(f *testing.F)          { fuzzScanner(f, scanArrow, "arrow") }
func FuzzTranscriptLines(f *testing.F) {
	fuzzScanner(f, scanTranscriptLines, "transcript_line")
}
func FuzzKimi(f *testing.F)    { fuzzScanner(f, scanKimi, "kimi") }
func FuzzHarmony(f *testing.F) { fuzzScanner(f, scanHarmony, "harmony") }
func FuzzGemma(f *testing.F)   { fuzzScanner(f, scanGemma, "gemma", "functiongemma") }
func FuzzLlama(f *testing.F)   { fuzzScanner(f, scanLlama, "llama") }
func FuzzLFM(f *testing.F) {
	fuzzScanner(f, func(t string, sc scanCtx) []span { return scanLFM(t, sc) }, "lfm")
}
func FuzzFenced(f *testing.F) { fuzzScanner(f, scanFenced, "fenced", "gemma_tool_code", "prose_code") }
func FuzzBareJSON(f *testing.F) {
	fuzzScanner(f, scanBareJSON, "json", "llama_bare", "hermes_missing_open", "fused_member")
}
func FuzzNamedJSON(f *testing.F) { fuzzScanner(f, scanNamedJSON, "named_json", "namedjson") }
func FuzzGemmaBare(f *testing.F) { fuzzScanner(f, scanGemmaBare, "gemma", "functiongemma") }
func FuzzTagPairs(f *testing.F)  { fuzzScanner(f, scanTagPairs, "tagpair", "qwen3coder") }
func FuzzAttrTags(f *testing.F)  { fuzzScanner(f, scanAttrTags, "attr_element", "xmltag", "hermes") }
func FuzzContinueLines(f *testing.F) {
	fuzzScanner(f, scanContinueLines, "continue")
}
func FuzzBareInvoke(f *testing.F) { fuzzScanner(f, scanBareInvoke, "invoke") }
func FuzzAttributes(f *testing.F) { fuzzScanner(f, scanAttributes, "tagpair") }
func FuzzFused(f *testing.F)      { fuzzScanner(f, scanFused, "fused") }
func FuzzAttrLines(f *testing.F)  { fuzzScanner(f, scanAttrLines, "attr_line") }
func FuzzLabelLines(f *testing.F) { fuzzScanner(f, scanLabelLines, "label_line", "transcript") }
func FuzzMangledXMLTag(f *testing.F) {
	fuzzScanner(f, scanMangledXMLTag, "xml_mangled", "xmltag")
}
func FuzzReAct(f *testing.F)     { fuzzScanner(f, scanReAct, "react", "qwen_agent") }
func FuzzQwenAgent(f *testing.F) { fuzzScanner(f, scanQwenAgent, "qwen_agent", "react") }
func FuzzBracketBlocks(f *testing.F) {
	fuzzScanner(f, scanBracketBlocks, "bracket_block")
}
func FuzzPython(f *testing.F) { fuzzScanner(f, scanPython, "python", "gemma_bracket", "prose") }

// FuzzGLM fuzzes the GLM body reader directly: its blocks are found by the Hermes scanner.
func FuzzGLM(f *testing.F) {
	seedGoldens(f, "glm")
	f.Fuzz(func(t *testing.T, body string) {
		calls, _ := glmBody(body, knownOpts().Known)
		for _, c := range calls {
			checkCall(t, c)
		}
	})
}

// FuzzClosedBeforeProse fuzzes the repair of bare JSON calls that never close (jsonprose.go).
func FuzzClosedBeforeProse(f *testing.F) {
	seedGoldens(f, "json")
	f.Fuzz(func(t *testing.T, s string) {
		fixed, n, ok := closedBeforeProse(s)
		if ok && (n <= 0 || n > len(s) || fixed == "") {
			t.Fatalf("span %d of %d, fixed %q", n, len(s), fixed)
		}
	})
}

func FuzzSWEAgent(f *testing.F) { fuzzScanner(f, scanSWEAgent, "swe_agent") }

// FuzzRestoreDSMLLines fuzzes the rewrite of DSML tag lines rendered without their brackets.
func FuzzRestoreDSMLLines(f *testing.F) {
	f.Add("DSML | tool_calls\nDSML | invoke name=\"bash\"\nDSML | parameter name=\"command\" string=\"true\"\nls\nDSML | /parameter\nDSML | /invoke\nDSML | /tool_calls")
	f.Add("DSML｜invoke name=\"x\"\r\nDSML|/invoke")
	f.Fuzz(func(t *testing.T, text string) {
		out := restoreDSMLLines(text)
		if out != text && !strings.Contains(out, "｜DSML｜invoke") {
			t.Fatalf("rewrote %q with no invoke: %q", text, out)
		}
		for _, c := range Parse(text, knownOpts()).Calls {
			checkCall(t, c)
		}
	})
}
