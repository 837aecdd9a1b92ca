package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/troupe-dev/troupe/internal/lazyre"
	"github.com/troupe-dev/troupe/internal/nearest"
	"github.com/troupe-dev/troupe/tools/textcall"
)

// Tool-name repair: a call to a name the session does not have is mapped to one of its tools
// only when the mapping is certain: the same name in another spelling (case, -/_, camelCase,
// a namespace prefix), a known tool of another harness with its arguments translated, a
// typo clearly closer to one tool than to any other, or an invented name whose words mean one
// tool and whose arguments fit it (toolnames_meaning.go). Anything less is refused with a reason.

// namespacePrefixes are stripped from a tool name before matching. MCP names (mcp__server__x)
// are left alone: they name another server's tool, never one of ours.
// filesystem__ is Goose's namespace for the MCP filesystem server (goose#2926); builtin_ is
// Continue's for its own tools (core/tools/builtIn.ts: builtin_read_file, builtin_ls, …).
var namespacePrefixes = []string{"functions.", "default_api.", "tools.", "functions:", "tool:", "filesystem__", "builtin_"}

// resolution is where a call to a name goes.
type resolution struct {
	name    string   // the registered tool
	args    string   // the arguments, translated when the name was another harness's
	repairs []Repair // tool_name first, then any repairs made parsing args to translate them
	refusal string   // why the name cannot be mapped, when it cannot (precise, for the model)
	// inferred says the name named no tool (a call id) and the arguments chose it: the call
	// is a guess, as a reply of bare arguments is (Call.Inferred, repair_callid.go)
	inferred bool
}

// Resolve maps name (and its raw arguments) to a registered tool. canonical is name itself
// when registered; otherwise the certain mapping, with args translated when the name was
// another harness's (Claude Code, Codex, Gemini CLI, OpenHands, SWE-agent). ok is false when
// no mapping is certain. It is cheap, reads no files and has no side effects, so it also
// serves as the text-call parser's notion of a known tool.
func (r *Registry) Resolve(name, args string) (canonical, translatedArgs string, ok bool) {
	res, ok := r.resolve(name, args)
	return res.name, res.args, ok
}

// Knows says whether name is a tool call this session recognises: one Resolve maps, or a
// known tool of another harness whose arguments decide (or refuse) the mapping. The
// text-call parser uses it to tell a call written as text from prose.
func (r *Registry) Knows(name string) bool {
	res, ok := r.resolve(name, "")
	return ok || res.refusal != ""
}

func (r *Registry) resolve(name, args string) (resolution, bool) {
	if _, ok := r.byName[name]; ok {
		return resolution{name: name, args: args}, true
	}
	if strings.HasPrefix(name, "mcp__") || name == "" {
		return resolution{}, false
	}
	if res, isID, ok := r.resolveCallID(name, args); isID {
		return res, ok
	}
	if pieces := leakedTokenPieces(name); pieces != nil {
		return r.resolveLeaked(name, pieces, args)
	}
	if inner, innerArgs, ok := callInName(name, args); ok {
		res, found := r.resolve(inner, innerArgs)
		if found {
			res.repairs = append([]Repair{newRepair(RepairTextFormat, name, inner+" "+innerArgs)}, res.repairs...)
		}
		return res, found
	}
	bare := name
	for _, p := range namespacePrefixes {
		bare = strings.TrimPrefix(bare, p)
	}
	if h, ok := harnessTools[bare]; ok {
		return r.translate(name, h, args)
	}
	if stem, ok := methodStem(bare); ok {
		// Llama 3.1's built-in tool syntax (brave_search.call(query=…), its prompt-format
		// docs) applied to a custom tool: read_file.call(path=…) calls read_file; a tool
		// class's run or execute method (ShellTool.run) calls that tool
		if res, found := r.resolve(stem, args); found {
			return res.renamedFrom(name), true
		}
	}
	if half, ok := doubledName(bare); ok {
		if res, found := r.resolve(half, args); found {
			return res.renamedFrom(name), true
		}
	}
	for _, unwrap := range []func(string) (string, bool){unquotedName, versionedName} { // repair_names.go
		if inner, ok := unwrap(bare); ok {
			if res, found := r.resolve(inner, args); found {
				return res.renamedFrom(name), true
			}
		}
	}

	if tool, ok := r.namespacedTool(bare); ok && tool != bare {
		res, found := r.resolve(tool, args)
		if found {
			res = res.renamedFrom(name)
		}
		return res, found
	}
	if _, ok := r.byName[bare]; ok {
		return r.renamed(name, bare, args), true
	}
	norm := normalizedName(bare)
	for _, e := range r.entries {
		if normalizedName(e.spec.Name) == norm {
			return r.renamed(name, e.spec.Name, args), true
		}
	}
	if key, ok := harnessByNormalized[norm]; ok {
		return r.translate(name, harnessTools[key], args)
	}
	normalized := make([]string, len(r.entries))
	for i, e := range r.entries {
		normalized[i] = normalizedName(e.spec.Name)
	}
	if best, ok := nearest.WithMargin(norm, normalized); ok {
		for _, e := range r.entries {
			if normalizedName(e.spec.Name) == best {
				return r.renamed(name, e.spec.Name, args), true
			}
		}
	}
	res, ok := r.byMeaning(bare, args)
	if !ok && res.refusal == "" && strings.TrimSpace(args) != "" {
		res, ok = r.byAction(bare, args)
	}
	if rest, namespaced := namespaceRest(bare); !ok && res.refusal == "" && namespaced {
		// an invented tool under an invented namespace (ICodebase.read_directory): the
		// words of the tool's own name decide, with its arguments, as they do bare
		if res, ok = r.byMeaning(rest, args); ok {
			res = res.renamedFrom(name)
		}
	}
	return res, ok
}

// controlToken matches a chat-template control token: <|channel|>, <|constrain|>, <|end|>.
// A call format's own tag glued to the name (read_file</tool_call>) is read the same way.
var controlToken = lazyre.New(`<\|[a-z_]{1,24}\|>|</?(?:tool_call|function_call|function|invoke|tool|call)>`)

// leakedTokenPieces splits a name that carries leaked control tokens (gpt-oss:
// "query_dataset<|channel|>commentary", vllm#32587; "assistant<|channel|>analysis",
// ollama#11704) into its words; nil when it has none.
func leakedTokenPieces(name string) []string {
	if !controlToken.MatchString(name) {
		return nil
	}
	var pieces []string
	for _, p := range controlToken.Split(name, -1) {
		if p = strings.TrimSpace(p); p != "" {
			pieces = append(pieces, p)
		}
	}
	return pieces
}

// resolveLeaked maps a name with leaked control tokens: the one word of it that is a tool,
// or, when no word is, the one tool whose schema accepts the arguments exactly as sent (the
// call came through the tool-call channel, so it meant one of this session's tools).
func (r *Registry) resolveLeaked(name string, pieces []string, args string) (resolution, bool) {
	var found []resolution
	for _, p := range pieces {
		if res, ok := r.resolve(p, args); ok && !slices.ContainsFunc(found, func(f resolution) bool { return f.name == res.name }) {
			found = append(found, res)
		}
	}
	if len(found) == 1 {
		return r.renamed(name, found[0].name, found[0].args), true
	}
	if len(found) == 0 {
		if to, ok := r.onlyToolAccepting(args); ok {
			return r.renamed(name, to, args), true
		}
	}
	return resolution{refusal: fmt.Sprintf("the tool name %q carries leaked chat-template tokens and names no one tool here", name)}, false
}

// onlyToolAccepting is the one registered tool whose schema accepts args as sent.
func (r *Registry) onlyToolAccepting(args string) (string, bool) {
	parsed, _, err := parseArgs(args)
	var decoded map[string]any
	if err != nil || decodeNumbers(string(parsed), &decoded) != nil || len(decoded) == 0 {
		return "", false
	}
	match := ""
	for _, e := range r.entries {
		if e.schema.validate(decoded) == nil {
			if match != "" {
				return "", false
			}
			match = e.spec.Name
		}
	}
	return match, match != ""
}

// callInName reads a structured call whose name field carries a whole text call, as GLM
// writes it: "read<arg_key>filePath</arg_key><arg_value>/a</arg_value>" (zai-org/GLM-5#84).
// ok only when the name holds exactly one call and the arguments field adds nothing to it.
func callInName(name, args string) (inner, innerArgs string, ok bool) {
	if !strings.Contains(name, "<") {
		return "", "", false
	}
	if a := strings.TrimSpace(args); a != "" && a != "{}" && a != "null" {
		return "", "", false
	}
	found := textcall.Parse("<tool_call>"+name+"</tool_call>", textcall.Options{})
	if len(found.Calls) != 1 || found.Calls[0].Args == nil || found.Prose != "" || strings.Contains(found.Calls[0].Name, "<") {
		return "", "", false
	}
	return found.Calls[0].Name, string(found.Calls[0].Args), true
}

// renamedFrom is res reached from the name the model wrote: its tool_name repair starts there.
func (res resolution) renamedFrom(name string) resolution {
	if len(res.repairs) > 0 && res.repairs[0].Kind == RepairToolName {
		res.repairs[0] = newRepair(RepairToolName, name, res.name)
	} else {
		res.repairs = append([]Repair{newRepair(RepairToolName, name, res.name)}, res.repairs...)
	}
	return res
}

func (r *Registry) renamed(from, to, args string) resolution {
	return resolution{name: to, args: args, repairs: []Repair{newRepair(RepairToolName, from, to)}}
}

// translate maps a call to another harness's tool, translating its arguments. A mapping whose
// target this session lacks, or whose arguments would make it mean something else, is refused.
func (r *Registry) translate(name string, h harnessTool, raw string) (resolution, bool) {
	refuse := func(format string, a ...any) (resolution, bool) {
		return resolution{refusal: fmt.Sprintf(format, a...)}, false
	}
	if h.convert == nil && len(h.rename) == 0 && len(h.drop) == 0 {
		return r.retarget(name, h.target, raw)
	}
	parsed, parseRepairs, err := parseArgs(raw)
	var args map[string]any
	if text, ok := h.textArgs(raw); ok {
		args, parseRepairs, err = text, nil, nil
	} else if err == nil {
		err = decodeNumbers(string(parsed), &args)
	}
	if err != nil {
		if h.target == "" {
			return refuse("cannot read the arguments of %s to map it to one of this session's tools: %v", name, err)
		}
		return r.retarget(name, h.target, raw) // prepare reports the JSON error against the target
	}
	target := h.target
	if h.convert != nil {
		to, refusal := h.convert(args)
		if refusal != "" {
			return refuse("%s: %s", name, refusal)
		}
		if to != "" {
			target = to
		}
	}
	for from, to := range h.rename {
		if v, ok := args[from]; ok {
			if _, taken := args[to]; !taken {
				args[to] = v
				delete(args, from)
			}
		}
	}
	for _, k := range h.drop {
		delete(args, k)
	}
	out, err := json.Marshal(args)
	if err != nil {
		return refuse("cannot re-encode the arguments of %s: %v", name, err)
	}
	res, ok := r.retarget(name, target, string(out))
	res.repairs = append(res.repairs, parseRepairs...)
	return res, ok
}

// retarget sends the call to target, when the session has it.
func (r *Registry) retarget(name, target, args string) (resolution, bool) {
	if _, ok := r.byName[target]; !ok {
		return resolution{refusal: fmt.Sprintf("%s would be %s here, which this session does not have", name, target)}, false
	}
	return r.renamed(name, target, args), true
}
