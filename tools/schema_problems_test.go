package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// problemSchemas cover the keywords tools and custom tools use; problemCases pin the texts
// the model is shown. The expected texts were produced by the validator the harness used
// before (santhosh-tekuri/jsonschema), so the move to google/jsonschema-go changed no
// wording. Order within a result is not pinned (the old validator's was map order).
var problemSchemas = []string{
	`{"type":"object","properties":{"path":{"type":"string"},"offset":{"type":"integer","minimum":1},"limit":{"type":"integer","maximum":10,"exclusiveMinimum":0}},"required":["path"],"additionalProperties":false}`,
	`{"type":"object","properties":{"edits":{"type":"array","minItems":1,"items":{"type":"object","properties":{"old":{"type":"string","minLength":1},"new":{"type":"string"}},"required":["old","new"],"additionalProperties":false}}},"required":["edits"]}`,
	`{"type":"object","properties":{"mode":{"enum":["a","b",3]},"one":{"const":"x"},"e1":{"enum":["only"]},"n":{"type":["integer","string"]},"p":{"type":"string","pattern":"^[a-z]+$","maxLength":3},"m":{"type":"number","multipleOf":0.5},"u":{"type":"array","uniqueItems":true,"maxItems":2}}}`,
	`{"type":"object","properties":{"x":{"anyOf":[{"type":"string"},{"type":"integer"}]},"y":{"oneOf":[{"type":"number"},{"type":"integer"}]},"z":{"not":{"type":"string"}},"w":{"allOf":[{"type":"string"},{"minLength":2}]}},"minProperties":1,"maxProperties":3}`,
	`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"boolean"}},"additionalProperties":{"type":"integer"}}},"patternProperties":{"^x_":{"type":"string"}},"additionalProperties":false,"dependentRequired":{"a":["q"]}}`,
	`{"type":"object","properties":{"a":{"$ref":"#/$defs/s"},"list":{"type":"array","items":{"$ref":"#/$defs/node"}}},"$defs":{"s":{"type":"string","minLength":2},"node":{"type":"object","properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["name"]}}}`,
}

func TestValidateProblemTexts(t *testing.T) {
	cases := []struct {
		schema int
		args   string
		want   []string
	}{
		{0, `{"path":1}`, []string{"path: got number, want string"}},
		{0, `{"path":"a","offset":0,"limit":11}`, []string{"limit: maximum: got 11, want 10", "offset: minimum: got 0, want 1"}},
		{0, `{"path":"a","limit":0,"zz":1,"yy":2}`, []string{"limit: exclusiveMinimum: got 0, want 0", "unknown property 'yy', 'zz'"}},
		{0, `{"offset":"x"}`, []string{"missing required property 'path'", "offset: got string, want integer"}},
		{0, `{"path":"a","offset":1.5}`, []string{"offset: got number, want integer"}},
		{0, `{"path":null}`, []string{"path: got null, want string"}},
		{1, `{"edits":[]}`, []string{"edits: minItems: got 0, want 1"}},
		{1, `{"edits":[{}]}`, []string{"missing required properties 'edits.0.old', 'edits.0.new'"}},
		{1, `{"edits":[{"old":"","new":1,"k":2}, "s"]}`, []string{"edits.0.new: got number, want string", "edits.0.old: minLength: got 0, want 1", "edits.1: got string, want object", "unknown property 'edits.0.k'"}},
		{1, `{"edits":"x"}`, []string{"edits: got string, want array"}},
		{2, `{"mode":"c","one":"y","e1":"no","n":true,"p":"ABCD","m":0.3,"u":[1,1,2]}`, []string{"e1: value must be 'only'", "m: multipleOf: got 0.3, want 0.5", "mode: value must be one of 'a', 'b', 3", "n: got boolean, want integer or string", "one: value must be 'x'", "p: 'ABCD' does not match pattern '^[a-z]+$'", "p: maxLength: got 4, want 3", "u: items at 0 and 1 are equal", "u: maxItems: got 3, want 2"}},
		{3, `{}`, []string{"arguments: minProperties: got 0, want 1"}},
		{3, `{"path":"a","limit":0,"zz":1,"yy":2}`, []string{"arguments: maxProperties: got 4, want 3"}},
		{3, `{"x":true,"y":1,"z":"s","w":"a"}`, []string{"arguments: maxProperties: got 4, want 3", "w: minLength: got 1, want 2", "x: got boolean, want integer", "x: got boolean, want string", "y: 'oneOf' failed, subschemas 0, 1 matched", "z: 'not' failed"}},
		{3, `{"y":"s"}`, []string{"y: got string, want integer", "y: got string, want number"}},
		{3, `{"x":[1],"w":"abc"}`, []string{"x: got array, want integer", "x: got array, want string"}},
		{4, `{"a":1,"list":[{}, {"name":2}, {"name":"x","kids":[{"kids":[]}]}]}`, []string{"a: got number, want object", "arguments: properties 'q' required, if 'a' exists", "unknown property 'list'"}},
		{4, `{"a":{"b":"no","c":"z","d":1},"x_1":2,"bad":1}`, []string{"a.b: got string, want boolean", "a.c: got string, want integer", "arguments: properties 'q' required, if 'a' exists", "unknown property 'bad'", "x_1: got number, want string"}},
		{5, `{"a":{"b":"no","c":"z","d":1},"x_1":2,"bad":1}`, []string{"a: got object, want string"}},
		{5, `{"a":1,"list":[{}, {"name":2}, {"name":"x","kids":[{"kids":[]}]}]}`, []string{"a: got number, want string", "list.1.name: got number, want string", "missing required property 'list.0.name'", "missing required property 'list.2.kids.0.name'"}}}
	compiled := make([]*argsSchema, len(problemSchemas))
	for i, sc := range problemSchemas {
		s, err := compileArgsSchema("t", json.RawMessage(sc))
		if err != nil {
			t.Fatalf("schema %d: %v", i, err)
		}
		compiled[i] = s
	}
	for _, tc := range cases {
		var args any
		if err := decodeNumbers(tc.args, &args); err != nil {
			t.Fatal(err)
		}
		err := compiled[tc.schema].validate(args)
		if err == nil {
			t.Errorf("schema %d, args %s: valid, want %q", tc.schema, tc.args, tc.want)
			continue
		}
		got := strings.Split(err.Error(), "; ")
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("schema %d, args %s:\n got %q\nwant %q", tc.schema, tc.args, got, want)
		}
	}
}

func TestValidateAcceptsValidArgs(t *testing.T) {
	cases := []struct {
		schema int
		args   string
	}{
		{0, `{"path":"a"}`},
		{0, `{"path":"a","offset":3.0,"limit":10}`}, // an integral number is an integer
		{0, `{"path":"a","offset":9007199254740993}`},
		{1, `{"edits":[{"old":"a","new":""}]}`},
		{2, `{"mode":3,"one":"x","e1":"only","n":"x","p":"abc","m":1.5,"u":[1,2]}`},
		{3, `{"x":"s","y":1.5,"w":"ab"}`},
		{4, `{"x_k":"v"}`},
		{5, `{"a":"ab","list":[{"name":"x","kids":[{"name":"y"}]}]}`},
	}
	for _, tc := range cases {
		s, err := compileArgsSchema("t", json.RawMessage(problemSchemas[tc.schema]))
		if err != nil {
			t.Fatal(err)
		}
		var args any
		if err := decodeNumbers(tc.args, &args); err != nil {
			t.Fatal(err)
		}
		if err := s.validate(args); err != nil {
			t.Errorf("schema %d, args %s: %v", tc.schema, tc.args, err)
		}
	}
}

// A keyword problemsOf does not word still fails the call, in the library's words.
func TestValidateFallsBackToLibraryText(t *testing.T) {
	s, err := compileArgsSchema("t", json.RawMessage(
		`{"type":"object","properties":{"l":{"type":"array","contains":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var args any
	if err := decodeNumbers(`{"l":[1,2]}`, &args); err != nil {
		t.Fatal(err)
	}
	err = s.validate(args)
	if err == nil || !strings.HasPrefix(err.Error(), "arguments: ") || !strings.Contains(err.Error(), "contains") ||
		strings.Contains(err.Error(), "validating ") {
		t.Fatalf("err = %v, want the library's contains problem after \"arguments: \"", err)
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":`, "parse schema: unexpected end of JSON input"},
		{`[1]`, "compile schema: the schema must be a JSON object"},
		{`{"type":"object","properties":{"a":{"type":["string","text"]}}}`,
			`compile schema: #/properties/a: unknown type "text" (use string, number, integer, boolean, array, object or null)`},
		{`{"type":"object","required":"path"}`, `compile schema: "required" cannot be a JSON string`},
		{`{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, "missing closing )"},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/nope"}}}`, `"/$defs/nope"`},
	}
	for _, tc := range tests {
		err := CompileSchema("t", json.RawMessage(tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CompileSchema(%s) = %v, want it to contain %q", tc.schema, err, tc.want)
		}
	}
	// A draft the library does not know is read as Draft 2020-12 rather than refused.
	if err := CompileSchema("t", json.RawMessage(`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object"}`)); err != nil {
		t.Errorf("draft-04 schema: %v", err)
	}
}
