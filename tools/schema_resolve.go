package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// The library that checks arguments (github.com/google/jsonschema-go) compiles nothing at
// package init, unlike the one it replaced, which compiled every draft's metaschema on each
// start of the binary. It stops at the first failure and words it for programmers, so the
// texts the model reads come from problemsOf (schema_problems.go), which walks the same
// parsed schema.

// isJSONSchemaType says whether "type" may name t.
func isJSONSchemaType(t string) bool {
	switch t {
	case "null", "boolean", "object", "array", "number", "integer", "string":
		return true
	}
	return false
}

// resolveSchema parses and prepares a tool's schema. The library does not check a schema
// against its metaschema, so the mistake a hand-written schema makes most (an unknown type
// name) is checked here; a $schema the library does not know is read as Draft 2020-12, the
// draft tools are written in.
func resolveSchema(schema json.RawMessage) (*jsonschema.Schema, *jsonschema.Resolved, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(schema), []byte("{")) {
		return nil, nil, errors.New("the schema must be a JSON object")
	}
	root := new(jsonschema.Schema)
	if err := json.Unmarshal(schema, root); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			// The library's text names its internal struct types; say which keyword is wrong.
			keyword := typeErr.Field[strings.LastIndex(typeErr.Field, ".")+1:]
			return nil, nil, fmt.Errorf("%q cannot be a JSON %s", keyword, typeErr.Value)
		}
		return nil, nil, err
	}
	switch root.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema":
	default:
		root.Schema = ""
	}
	if err := checkTypeNames(root, "#"); err != nil {
		return nil, nil, err
	}
	resolved, err := root.Resolve(nil)
	if err != nil {
		return nil, nil, err
	}
	return root, resolved, nil
}

func checkTypeNames(s *jsonschema.Schema, at string) error {
	if s == nil {
		return nil
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	for _, t := range types {
		if !isJSONSchemaType(t) {
			return fmt.Errorf("%s: unknown type %q (use string, number, integer, boolean, array, object or null)", at, t)
		}
	}
	for key, sub := range subschemas(s) {
		if err := checkTypeNames(sub, at+"/"+key); err != nil {
			return err
		}
	}
	return nil
}

// subschemas lists the schemas nested in s by where they sit (properties/path, items, ...).
func subschemas(s *jsonschema.Schema) map[string]*jsonschema.Schema {
	out := map[string]*jsonschema.Schema{}
	add := func(key string, sub *jsonschema.Schema) {
		if sub != nil {
			out[key] = sub
		}
	}
	for key, group := range map[string]map[string]*jsonschema.Schema{"properties": s.Properties,
		"patternProperties": s.PatternProperties, "$defs": s.Defs, "definitions": s.Definitions,
		"dependentSchemas": s.DependentSchemas, "dependencies": s.DependencySchemas} {
		for name, sub := range group {
			add(key+"/"+name, sub)
		}
	}
	for key, list := range map[string][]*jsonschema.Schema{"allOf": s.AllOf, "anyOf": s.AnyOf,
		"oneOf": s.OneOf, "prefixItems": s.PrefixItems, "items": s.ItemsArray} {
		for i, sub := range list {
			add(key+"/"+strconv.Itoa(i), sub)
		}
	}
	for key, sub := range map[string]*jsonschema.Schema{"items": s.Items,
		"additionalProperties": s.AdditionalProperties, "additionalItems": s.AdditionalItems,
		"not": s.Not, "if": s.If, "then": s.Then, "else": s.Else, "contains": s.Contains,
		"propertyNames": s.PropertyNames, "unevaluatedItems": s.UnevaluatedItems,
		"unevaluatedProperties": s.UnevaluatedProperties, "contentSchema": s.ContentSchema} {
		add(key, sub)
	}
	return out
}

// libraryProblem is the library's reason without its "validating <schema>: " prefixes.
func libraryProblem(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		msg = msg[i+2:]
	}
	return msg
}
