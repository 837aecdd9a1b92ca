package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// argsSchema is a tool's compiled argument schema plus what the harness reads from it
// directly: the top-level properties (in declaration order) for coercion and for the one-line
// summary shown in errors. resolved decides whether arguments are valid; root is the same
// schema, walked by problemsOf to say per field what is wrong in the harness's own words.
type argsSchema struct {
	resolved *jsonschema.Resolved
	root     *jsonschema.Schema
	// source is the schema; resolving it into resolved and root, at compile time or, for a
	// schema known to compile (SchemaCache.Defer), at the first validation, happens once.
	source     json.RawMessage
	resolving  sync.Once
	resolveErr error
	props      []propSpec
	required   map[string]bool
	summary    string
	example    string // one valid call's arguments, shown in errors
	// closed says the schema rejects undeclared properties (additionalProperties: false):
	// only then is an undeclared argument certainly a mistake worth renaming.
	closed bool
}

type propSpec struct {
	name  string
	types []string // from "type"; empty when the schema does not say
}

// rawSchema is the part of a JSON Schema the harness reads itself.
type rawSchema struct {
	Type       json.RawMessage            `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
	// AdditionalProperties is false for a closed object (any other value leaves it open).
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
}

func compileArgsSchema(name string, schema json.RawMessage) (*argsSchema, error) {
	return readArgsSchema(schema, true)
}

// readArgsSchema reads schema; resolve says whether it is resolved now (else at the first
// validation: for a schema known to compile).
func readArgsSchema(schema json.RawMessage, resolve bool) (*argsSchema, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, errors.New("no schema")
	}
	if !json.Valid(schema) {
		var probe any
		return nil, fmt.Errorf("parse schema: %w", json.Unmarshal(schema, &probe))
	}
	s := &argsSchema{source: schema, required: map[string]bool{}}
	if resolve {
		if err := s.resolve(); err != nil {
			return nil, err
		}
	}
	var raw rawSchema
	if err := json.Unmarshal(schema, &raw); err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	if t := typesOf(raw.Type); len(t) != 1 || t[0] != "object" {
		return nil, errors.New(`schema "type" must be "object": tool arguments are an object`)
	}
	s.closed = string(bytes.TrimSpace(raw.AdditionalProperties)) == "false"
	for _, r := range raw.Required {
		s.required[r] = true
	}
	for _, key := range propertyOrder(schema) {
		var prop rawSchema
		if err := json.Unmarshal(raw.Properties[key], &prop); err != nil {
			return nil, fmt.Errorf("read property %s: %w", key, err)
		}
		s.props = append(s.props, propSpec{name: key, types: typesOf(prop.Type)})
	}
	s.summary = s.describe()
	s.example = s.exampleCall()
	return s, nil
}

func typesOf(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

// propertyOrder lists the keys of the schema's "properties" in the order they are written.
func propertyOrder(schema json.RawMessage) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(top["properties"]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

// describe is the one-line shape of the arguments: {path: string, offset?: integer}.
func (s *argsSchema) describe() string {
	parts := make([]string, len(s.props))
	for i, p := range s.props {
		opt := "?"
		if s.required[p.name] {
			opt = ""
		}
		typ := strings.Join(p.types, "|")
		if typ == "" {
			typ = "any"
		}
		parts[i] = p.name + opt + ": " + typ
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// coerce fixes what budget models routinely get wrong where the schema leaves no doubt: a
// number or boolean sent as a string, an integer sent as 12.0, a single value where an array
// belongs, a one-string list where text belongs, a number for file content, an object or array sent as a
// JSON string, null for an optional argument (dropped), and offset 0 (dropped: the start). args must be a decoded object; it is changed in place. It returns one coercion
// Repair per argument changed.
func (s *argsSchema) coerce(args map[string]any) []Repair {
	var repairs []Repair
	for _, p := range s.props {
		v, ok := args[p.name]
		if !ok {
			continue
		}
		if v == nil && !s.required[p.name] && !contains(p.types, "null") {
			delete(args, p.name)
			repairs = append(repairs, newRepair(RepairCoercion, p.name+": null", p.name+" omitted"))
			continue
		}
		if n, isInt := intOf(v); isInt && n == 0 && p.name == "offset" && !s.required[p.name] {
			// offset 0 is the first line whether the caller counts from 0 or from 1
			delete(args, p.name)
			repairs = append(repairs, newRepair(RepairCoercion, "offset: 0", "offset omitted (the first line)"))
			continue
		}
		if len(p.types) != 1 {
			continue
		}
		fixed, ok := coerceValue(v, p.types[0])
		if !ok && p.name == "content" && p.types[0] == "string" {
			// A JSON file's content sent as the object itself (anomalyco/opencode#946), or a
			// number: its text. Only file content: for a pattern or a path it means something else.
			switch x := v.(type) {
			case map[string]any:
				b, err := json.Marshal(x)
				fixed, ok = string(b), err == nil
			case json.Number:
				fixed, ok = x.String(), true
			}
		}
		if !ok {
			continue
		}
		args[p.name] = fixed
		if before, after := compactJSON(v), compactJSON(fixed); before != after {
			repairs = append(repairs, newRepair(RepairCoercion, p.name+": "+before, p.name+": "+after))
		}
	}
	return repairs
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func coerceValue(v any, typ string) (any, bool) {
	switch typ {
	case "integer":
		var text string
		switch x := v.(type) {
		case string:
			text = strings.TrimSpace(x)
		case json.Number:
			text = x.String()
		default:
			return nil, false
		}
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return json.Number(text), true
		}
		if len(text) > maxExactNumber { // no int64 is this long (schema_values.go)
			return nil, false
		}
		if r, ok := new(big.Rat).SetString(text); ok && r.IsInt() && r.Num().IsInt64() {
			return json.Number(r.Num().String()), true
		}
	case "number":
		if x, ok := v.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return json.Number(strings.TrimSpace(x)), true
			}
		}
	case "string":
		if x, ok := v.([]any); ok { // one text in a list: that text
			if len(x) == 1 {
				if s, ok := x[0].(string); ok {
					return s, true
				}
			}
		}
	case "boolean":
		if x, ok := v.(string); ok {
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true":
				return true, true
			case "false":
				return false, true
			}
		}
	case "object":
		if x, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(x), "{") {
			var m map[string]any
			if decodeNumbers(x, &m) == nil {
				return m, true
			}
		}
	case "array":
		switch x := v.(type) {
		case []any:
			return nil, false
		case string:
			if strings.HasPrefix(strings.TrimSpace(x), "[") {
				var list []any
				if decodeNumbers(x, &list) == nil {
					return list, true
				}
			}
		case map[string]any:
			return nil, false // an object is not obviously one element
		}
		return []any{v}, true
	}
	return nil, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validate checks args against the schema and says, per field, what is wrong: every
// problem, each once. The library's verdict decides; the words are the harness's own
// (problemsOf), so the model sees the same texts whichever validator sits underneath.
func (s *argsSchema) validate(args any) error {
	if err := s.resolve(); err != nil {
		return err
	}
	verdict := s.resolved.Validate(plainNumbers(args))
	if verdict == nil {
		return nil
	}
	var problems []string
	seen := map[string]bool{}
	for _, msg := range problemsOf(s.root, args) {
		if !seen[msg] {
			seen[msg] = true
			problems = append(problems, msg)
		}
	}
	if len(problems) == 0 {
		// A keyword problemsOf does not word ($ref, contains, ...): the library's own text.
		return fmt.Errorf("arguments: %s", libraryProblem(verdict))
	}
	return errors.New(strings.Join(problems, "; "))
}

// resolve prepares the schema for validation, once.
func (s *argsSchema) resolve() error {
	s.resolving.Do(func() {
		root, resolved, err := resolveSchema(s.source)
		if err != nil {
			s.resolveErr = fmt.Errorf("compile schema: %w", err)
			return
		}
		s.root, s.resolved = root, resolved
	})
	return s.resolveErr
}

func prefixed(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// CompileSchema reports whether a tool's argument schema compiles as the registry compiles it
// (the session's /audit re-checks the schemas it offers).
func CompileSchema(name string, schema json.RawMessage) error {
	_, err := compileArgsSchema(name, schema)
	return err
}
