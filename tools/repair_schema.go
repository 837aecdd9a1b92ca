package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/troupe-dev/troupe/internal/nearest"
)

// The schema-guided half of argument repair: it runs on the decoded arguments object, before
// coercion and validation, and only changes what the tool's schema makes unambiguous.

// repairObject unwraps a wrapper object, renames aliased arguments and fixes Windows paths
// in path arguments. It returns the (possibly new) arguments and what it changed.
func (s *argsSchema) repairObject(args map[string]any, pathArgs []string) (map[string]any, []Repair) {
	var repairs []Repair
	if inner, key, ok := s.unwrap(args); ok {
		repairs = append(repairs, newRepair(RepairWrapper, key+": {…}", keyList(inner)))
		args = inner
	}
	repairs = append(repairs, s.gluedValues(args)...)
	repairs = append(repairs, s.leakedKeyTags(args)...)
	repairs = append(repairs, s.leakedValueTags(args)...)
	repairs = append(repairs, s.millisecondTimeout(args)...)
	repairs = append(repairs, s.lineRange(args)...)
	repairs = append(repairs, s.grepFlags(args)...)
	repairs = append(repairs, s.renameAliases(args)...)
	repairs = append(repairs, s.caseFlags(args)...)
	repairs = append(repairs, s.literalPattern(args)...)
	repairs = append(repairs, s.resultCaps(args)...)
	repairs = append(repairs, s.firstPage(args)...)
	repairs = append(repairs, s.options(args)...)
	repairs = append(repairs, s.argvCommand(args)...)
	repairs = append(repairs, s.valueShapes(args)...)
	repairs = append(repairs, s.promptURL(args)...)
	repairs = append(repairs, s.workingDirectory(args)...)
	repairs = append(repairs, s.escapedCommand(args)...)
	repairs = append(repairs, s.paddedCommand(args)...)
	repairs = append(repairs, s.echoedArgs(args)...)
	repairs = append(repairs, s.dropNotes(args)...)
	repairs = append(repairs, s.emptyUnknowns(args)...)
	repairs = append(repairs, s.quotedValues(args, pathArgs)...)
	repairs = append(repairs, s.pathValues(args, pathArgs)...)
	for _, name := range pathArgs {
		p, ok := args[name].(string)
		if !ok {
			continue
		}
		if fixed, changed := windowsPath(p); changed {
			args[name] = fixed
			repairs = append(repairs, newRepair(RepairBackslash, fmt.Sprintf("%s: %q", name, p), fmt.Sprintf("%s: %q", name, fixed)))
		}
	}
	return args, repairs
}

// has says whether the schema declares the top-level property name.
func (s *argsSchema) has(name string) bool {
	for _, p := range s.props {
		if p.name == name {
			return true
		}
	}
	return false
}

// unwrap finds {"arguments": {...}} (or input, parameters, args; the object may also be a
// JSON string) when the schema declares no such property and the call as sent is invalid (a
// closed schema, or required arguments, which the wrapper alone cannot carry). A "name" (or
// "tool", callNameKeys) beside the wrapper (the model repeating the tool's name) is allowed
// when the schema has no such key either.
func (s *argsSchema) unwrap(args map[string]any) (map[string]any, string, bool) {
	for _, key := range wrapperKeys {
		value, ok := args[key]
		if !ok || s.has(key) {
			continue
		}
		switch len(args) {
		case 1:
		case 2:
			if !s.namedBeside(args) {
				continue
			}
		default:
			continue
		}
		if inner := objectOf(value); inner != nil && s.knowsAnyOf(inner) && (s.closed || len(s.required) > 0) {
			return inner, key, true
		}
	}
	return nil, "", false
}

// callNameKeys are the keys a whole call names its tool under, as agent frameworks write it
// ({"name"|"tool"|"tool_name"|"function": N, "arguments"|"args": {…}}, aliases_action.go).
var callNameKeys = []string{"name", "tool", "tool_name", "function"}

// namedBeside says whether args, a wrapper and one other key, names the tool beside the
// wrapper: the model repeating the call's whole shape inside its arguments (Forge's
// {"tool": "run_command", "args": {…}} sent as run_command's args). The name key must be one
// the schema does not declare.
func (s *argsSchema) namedBeside(args map[string]any) bool {
	for _, k := range callNameKeys {
		if _, named := args[k].(string); named && !s.has(k) {
			return true
		}
	}
	return false
}

// knowsAnyOf says whether args carries an argument the schema declares, or an alias of one:
// only then is an unwrapped object plausibly this tool's arguments.
func (s *argsSchema) knowsAnyOf(args map[string]any) bool {
	for key := range args {
		if s.has(key) || s.aliasTarget(key, args) != "" {
			return true
		}
	}
	return false
}

// objectOf is v as an object: v itself, or a JSON string holding one.
func objectOf(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return x
	case string:
		var m map[string]any
		if decodeNumbers(x, &m) == nil {
			return m
		}
	}
	return nil
}

// decodeNumbers decodes JSON text keeping numbers as json.Number, as prepare does.
func decodeNumbers(text string, into any) error {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("extra data after the JSON value")
	}
	return nil
}

// renameAliases renames each argument the schema does not declare to the canonical name it
// stands for (argAliases, then the schema's own names compared with case and separators
// folded), only when the schema declares that name and the call does not already carry it.
func (s *argsSchema) renameAliases(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range slices.Sorted(maps.Keys(args)) {
		if s.has(key) {
			continue
		}
		canonical := s.aliasTarget(key, args)
		if canonical == "" {
			if same := s.aliasOf(key); same != "" && reflect.DeepEqual(args[same], args[key]) {
				delete(args, key) // the same value under both names (file_path and path)
				repairs = append(repairs, newRepair(RepairArgAlias, key, same))
			}
			continue
		}
		args[canonical] = args[key]
		delete(args, key)
		repairs = append(repairs, newRepair(RepairArgAlias, key, canonical))
	}
	if end, ok := args["end_line"]; ok && s.closed && !s.has("end_line") && s.has("limit") && args["limit"] == nil {
		if limit, ok := lineSpan(args["offset"], end); ok {
			args["limit"] = limit
			delete(args, "end_line")
			repairs = append(repairs, newRepair(RepairArgAlias, "end_line", "limit"))
		}
	}
	return repairs
}

// aliasOf is the declared argument key is an alias of, whatever the call carries; "" if none.
func (s *argsSchema) aliasOf(key string) string {
	for _, canonical := range argAliases[normalizedName(key)] {
		if s.has(canonical) {
			return canonical
		}
	}
	return ""
}

func (s *argsSchema) aliasTarget(key string, args map[string]any) string {
	norm := normalizedName(key)
	// An open schema accepts the undeclared key as sent; renaming it is only certain when the
	// call would otherwise lack a required argument.
	free := func(name string) bool {
		_, taken := args[name]
		return !taken && s.has(name) && (s.closed || s.required[name])
	}
	for _, canonical := range argAliases[norm] {
		if free(canonical) {
			return canonical
		}
	}
	for _, p := range s.props {
		if normalizedName(p.name) == norm && free(p.name) {
			return p.name
		}
	}
	return s.typoTarget(norm, free)
}

// typoMinLen is the shortest argument name read as a misspelling: shorter names are one edit
// from too many others.
const typoMinLen = 6

// typoMaxLen is the longest: a longer name is no misspelling of an argument name, and the edit
// distance to each name costs its length (a megabyte-long key would take seconds).
const typoMaxLen = 64

// typoTarget reads a misspelt argument name ("absolutea_path", gemini-cli#6989) as the alias
// or declared name it is nearest to, only with a clear margin over every other name.
func (s *argsSchema) typoTarget(norm string, free func(string) bool) string {
	if len(norm) < typoMinLen || len(norm) > typoMaxLen {
		return ""
	}
	targets := map[string]string{}
	for alias, canonicals := range argAliases {
		for _, c := range canonicals {
			if free(c) {
				targets[alias] = c
				break
			}
		}
	}
	for _, p := range s.props {
		if free(p.name) {
			targets[normalizedName(p.name)] = p.name
		}
	}
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, n)
	}
	sort.Strings(names)
	if best, ok := nearest.WithMargin(norm, names); ok {
		return targets[best]
	}
	return ""
}

// noteArgs are arguments other harnesses require that only describe the call to the user
// (opencode's and Claude Code's bash "description", Cline's "task_progress" checklist,
// cline#14057, GitHub Copilot's "explanation", the OpenHands tools' "security_risk" rating
// and the OpenHands agent SDK's "summary" of about ten words that every action may carry):
// they change nothing it does.
var noteArgs = []string{"description", "task_progress", "explanation", "security_risk", "summary"}

// dropNotes removes the note arguments a closed schema does not declare, when they are text.
func (s *argsSchema) dropNotes(args map[string]any) []Repair {
	var repairs []Repair
	for _, key := range noteArgs {
		if v, ok := args[key].(string); ok && s.closed && !s.has(key) {
			delete(args, key)
			repairs = append(repairs, newRepair(RepairDroppedNote, fmt.Sprintf("%s: %q", key, v), ""))
		}
	}
	return repairs
}

// lineSpan is the number of lines from offset to end inclusive, when both are integers.
func lineSpan(offset, end any) (json.Number, bool) {
	from, ok1 := intOf(offset)
	to, ok2 := intOf(end)
	if !ok1 || !ok2 || to < from {
		return "", false
	}
	return json.Number(fmt.Sprint(to - from + 1)), true
}

// intOf reads an integer argument, also when it came as digits in a string (XML-ish call
// formats carry every value as text: MiniMax-M3#31's <end_line>165</end_line>).
func intOf(v any) (int64, bool) {
	var n json.Number
	switch x := v.(type) {
	case json.Number:
		n = x
	case string:
		n = json.Number(strings.TrimSpace(x))
	default:
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// windowsPath undoes what JSON escapes did to an unescaped Windows path ("src\new\file.go"
// decodes with a newline and a form feed) and turns a relative path's backslashes into
// slashes. A drive-letter path keeps its backslashes: the path policy judges it as it is.
func windowsPath(p string) (string, bool) {
	fixed := p
	if strings.ContainsAny(p, "\n\t\f\b\r") {
		fixed = controlEscapes.Replace(p)
	}
	if strings.Contains(fixed, `\`) && !isDrivePath(fixed) && !strings.HasPrefix(fixed, `\\`) {
		fixed = strings.ReplaceAll(fixed, `\`, "/")
	}
	return fixed, fixed != p
}

var controlEscapes = strings.NewReplacer("\n", `\n`, "\t", `\t`, "\f", `\f`, "\b", `\b`, "\r", `\r`)

func isDrivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && isWordStart(p[0])
}

// keyList previews an object by its keys: {path, content}.
func keyList(m map[string]any) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
	}
	b.WriteByte('}')
	return b.String()
}
