package config

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Entry is one setting as `troupe config` shows it: its key as a file writes it (dotted for a
// table's keys), its value in TOML, and the layer that set it.
type Entry struct {
	Key, Value, Source string
}

// Keys lists every key a configuration file may set, as dotted paths ("done.max_refusals"),
// tables included ("done"): derived from the file's types, so a new key is listed at once.
func Keys() []string { return knownKeys() }

// Entries lists the configuration in effect, one entry per setting, in the order of Config's
// fields. A field tagged toml:"-" is shown under its `key` tag, or not at all.
func (c *Config) Entries() []Entry {
	var out []Entry
	var walk func(v reflect.Value, key, field string)
	walk = func(v reflect.Value, key, field string) {
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "-" || name == "" {
				if name = f.Tag.Get("key"); name == "" {
					continue
				}
			} else {
				name = key + name
			}
			path := field + f.Name
			if f.Type.Kind() == reflect.Struct {
				walk(v.Field(i), name+".", path+".")
				continue
			}
			value := tomlValue(v.Field(i))
			if f.Tag.Get("secret") != "" && !v.Field(i).IsZero() {
				value = `"(set)"` // a credential is never printed
			}
			out = append(out, Entry{Key: name, Value: value, Source: c.Origin(path)})
		}
	}
	walk(reflect.ValueOf(c).Elem(), "", "")
	return out
}

// tomlValue writes a setting's value as TOML: a string quoted, a list or a table inline.
func tomlValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return quote(v.String())
	case reflect.Slice:
		parts := make([]string, v.Len())
		for i := range v.Len() {
			parts[i] = tomlValue(v.Index(i))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case reflect.Map:
		var keys []string
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = quote(k) + " = " + tomlValue(v.MapIndex(reflect.ValueOf(k)))
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case reflect.Struct: // an inline table of the fields that are set ([mcp.servers.NAME])
		var parts []string
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
			if name == "" || name == "-" || !t.Field(i).IsExported() || v.Field(i).IsZero() {
				continue
			}
			parts = append(parts, name+" = "+tomlValue(v.Field(i)))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return fmt.Sprint(v.Interface())
}

// quote writes a TOML basic string (JSON's escapes are TOML's, for the text a setting holds).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
