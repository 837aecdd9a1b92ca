package textcall

import (
	"encoding/json"
	"strings"
)

// GLM-4.5/4.6/4.7, from the zai-org chat templates and vLLM's glm4_moe tool parser:
//
//	<tool_call>read_file
//	<arg_key>path</arg_key>
//	<arg_value>a.go</arg_value>
//	</tool_call>
//
// The block is scanned by the Hermes scanner (same tag); this reads its body. A missing
// </arg_value> ends at the next <arg_key>; a closer with its '<' or its '/' lost
// (a.go/arg_value>, a.go<arg_value>) closes the value; a value whose <arg_value> was lost
// runs from </arg_key> to its </arg_value>.

const (
	glmKeyOpen    = "<arg_key>"
	glmKeyClose   = "</arg_key>"
	glmValueOpen  = "<arg_value>"
	glmValueClose = "</arg_value>"
)

func glmBody(body string, known func(string) bool) ([]Call, bool) {
	nameEnd := len(body)
	if i := strings.IndexAny(body, "\n<"); i >= 0 {
		nameEnd = i
	}
	name := strings.TrimSpace(body[:nameEnd])
	rest := restoreGLMOpeners(body[nameEnd:])
	if n, key, ok := unglue(name, rest, known); ok {
		name, rest = n, glmKeyOpen+key+rest
	}
	if p := strings.TrimSpace(rest); strings.HasPrefix(p, qwenParamOpen) && plausibleName(name) {
		// GLM's bare name with Qwen3-Coder's parameters: <tool_call>read_file<parameter=path>a.go</parameter>
		call, complete := qwenFunction(qwenFunctionOpen + name + ">" + p)
		if call == nil || call.Args == nil {
			return nil, complete
		}
		return []Call{*call}, complete
	}
	if !plausibleName(name) || strings.TrimSpace(rest) != "" && !strings.Contains(rest, glmKeyOpen) {
		return nil, true
	}
	var pairs []kv
	complete := true
	for _, part := range strings.Split(rest, glmKeyOpen)[1:] {
		key, after, ok := strings.Cut(part, glmKeyClose)
		if !ok {
			// the key's closer lost before its value: <arg_key>path<arg_value>a.go</arg_value>
			if k, v, found := strings.Cut(part, glmValueOpen); found && !strings.Contains(k, "<") {
				key, after, ok = k, glmValueOpen+v, true
			}
		}
		if !ok {
			complete = false
			break
		}
		_, value, ok := strings.Cut(after, glmValueOpen)
		if !ok {
			// the value's opener lost, its closer kept: <arg_key>k</arg_key>v</arg_value>
			// (GLM-5.2's raw tokens in vllm#49248), as childTags reads a lost opener
			if v, _, closed := strings.Cut(after, glmValueClose); closed && !strings.Contains(v, "<arg_") {
				pairs = append(pairs, kv{strings.TrimSpace(key), tagValue(trimOneNewline(v))})
				continue
			}
			complete = false
			break
		}
		if v, _, ok := strings.Cut(value, glmValueClose); ok {
			value, complete = v, true
		} else if v, _, ok := strings.Cut(value, glmValueClose[1:]); ok { // the closer with its '<' lost: a.go/arg_value>
			value, complete = v, true
		} else { // the closer with its '/' lost: a.go<arg_value>
			value, _, complete = strings.Cut(value, glmValueOpen)
		}
		pairs = append(pairs, kv{strings.TrimSpace(key), glmValue(value)})
	}
	return []Call{{Name: name, Args: objectOf(pairs), Raw: strings.TrimSpace(rest), Format: FormatGLM}}, complete
}

// restoreGLMOpeners gives back the '<' a tag of the pairs lost at the start of its line
// ("arg_key>path</arg_key>", "/arg_key>"), as the other formats' closers lose theirs; a word
// that merely ends in "arg_key>" inside a value is left alone.
func restoreGLMOpeners(rest string) string {
	if !strings.Contains(rest, "arg_") {
		return rest
	}
	var b strings.Builder
	for i := 0; i < len(rest); i++ {
		lineStart := i == 0 || rest[i-1] == '\n'
		if lineStart {
			for _, tag := range []string{"arg_key>", "arg_value>", "/arg_key>"} {
				if strings.HasPrefix(rest[i:], tag) {
					b.WriteByte('<')
					break
				}
			}
		}
		b.WriteByte(rest[i])
	}
	return b.String()
}

// glmValue is an <arg_value>'s value. GLM's template writes a value verbatim between its tags,
// with no line breaks of its own around it, so a value of several lines keeps its last line
// break (a file's content ends with one: GLM-4.7 writing a FAQ file in
// singapore-smb-support-agent's pasted session); a line break right after the opener, the
// habit of templates that pad values, is dropped. One-line values and JSON read as tagValue
// reads them.
func glmValue(v string) json.RawMessage {
	t := strings.TrimSpace(v)
	if !strings.Contains(t, "\n") || !strings.HasSuffix(v, "\n") || strings.HasSuffix(v, "\n\n") || t[0] == '[' || t[0] == '{' {
		return tagValue(v)
	}
	return quoteJSON(strings.TrimPrefix(strings.TrimPrefix(v, "\r"), "\n"))
}

// scanGLMOrphans reads GLM calls whose opening <tool_call> was lost:
//
//	read_file
//	<arg_key>path</arg_key>
//	<arg_value>a.go</arg_value>
//	</tool_call>
//
// The name is the word right before the first <arg_key>; the call runs over consecutive
// key/value pairs and a trailing </tool_call>. Calls with their <tool_call> are read by the
// Hermes scanner, which runs first.
func scanGLMOrphans(text string, sc scanCtx) []span {
	f := newGLMFinders(text)
	keys := newFinder(text, glmKeyOpen)
	var out []span
	for pos := 0; ; {
		k := keys.at(pos)
		if k < 0 {
			return out
		}
		start, nameEnd := nameBefore(text, k, pos)
		end, complete := glmPairsEnd(text, k, f)
		if !complete {
			return append(out, span{start: start, end: len(text), partial: true})
		}
		calls, _ := glmBody(text[start:end], sc.opt.Known)
		if w := skipSpace(text, end); strings.HasPrefix(text[w:], hermesClose) {
			end = w + len(hermesClose)
		}
		if start < nameEnd && len(calls) > 0 {
			out = append(out, span{start: start, end: end, calls: calls})
		}
		pos = end
	}
}

// glmPairsEnd returns where the run of <arg_key>…</arg_value> pairs starting at k ends;
// complete is false when the text ends inside a pair. A value ends at its closer, at a closer
// with its '<' or '/' lost, or, with no closer, at the next <arg_key>.
func glmPairsEnd(text string, k int, f glmFinders) (end int, complete bool) {
	for strings.HasPrefix(text[k:], glmKeyOpen) {
		v := f.values.at(k)
		if c := f.closes.at(k); c >= 0 && (v < 0 || c < v) { // the value's opener lost
			if next := f.keys.at(k + len(glmKeyOpen)); next < 0 || c < next {
				end = c + len(glmValueClose)
				k = skipSpace(text, end)
				continue
			}
		}
		if v < 0 {
			return len(text), false
		}
		body := v + len(glmValueOpen)
		next := f.keys.at(body)
		c := firstOf(body, f.closes, f.lostLt, f.values)
		switch {
		case c >= 0 && (next < 0 || c < next):
			end = c + len(glmValueOpen)
			if strings.HasPrefix(text[c:], glmValueClose) {
				end = c + len(glmValueClose)
			}
		case next >= 0:
			end = next
		case f.wrapperEnds.at(body) >= 0:
			// the last value's closer lost before the block's: <arg_value>a.go</tool_call>
			return f.wrapperEnds.at(body), true
		default:
			return len(text), false
		}
		k = skipSpace(text, end)
	}
	return end, true
}

// glmFinders search the text once for each GLM tag (finder).
type glmFinders struct{ keys, values, closes, lostLt, wrapperEnds *finder }

func newGLMFinders(text string) glmFinders {
	return glmFinders{newFinder(text, glmKeyOpen), newFinder(text, glmValueOpen), newFinder(text, glmValueClose), newFinder(text, glmValueClose[1:]),
		newFinder(text, hermesClose)}
}

// unglue splits a name glued to the first argument key, as GLM drops the <arg_key> between
// them: "read_filepath</arg_key><arg_value>a.go</arg_value>" (the name, then "path"). The split
// is the longest Known prefix whose remainder is a common argument name (Known also accepts
// typos and other spellings, so "read_filep" + "ath" must not win); nothing is split without
// Known names.
func unglue(glued, rest string, known func(string) bool) (name, key string, ok bool) {
	if known == nil || !strings.HasPrefix(strings.TrimLeft(rest, " \t"), glmKeyClose) || known(glued) {
		return "", "", false
	}
	for i := len(glued) - 1; i > 0; i-- {
		if commonArgKeys[strings.ToLower(glued[i:])] && known(glued[:i]) {
			return glued[:i], glued[i:], true
		}
	}
	return "", "", false
}

// commonArgKeys are argument names coding tools share, the keys a glued GLM name ends with.
var commonArgKeys = map[string]bool{
	"path": true, "file_path": true, "filepath": true, "file": true, "filename": true, "paths": true,
	"command": true, "cmd": true, "pattern": true, "query": true, "content": true, "contents": true,
	"old_string": true, "new_string": true, "old_str": true, "new_str": true, "url": true,
	"directory": true, "dir": true, "dir_path": true, "absolute_path": true, "target_file": true,
	"text": true, "regex": true, "glob": true, "include": true, "offset": true, "limit": true,
}
