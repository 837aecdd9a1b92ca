package projection

import "testing"

func TestWindow(t *testing.T) {
	tests := []struct {
		model string
		want  int
		known bool
	}{
		{"gpt-4o", 128000, true},
		{"gpt-4o-mini", 128000, true},
		{"gpt-4o-2024-08-06", 128000, true},
		{"openai/gpt-4.1-mini", 1047576, true},
		{"gpt-5", 400000, true},
		{"gpt-5-codex", 400000, true},
		{"o3", 200000, true},
		{"o3-mini", 200000, true},
		{"o4-mini", 200000, true},
		{"claude-sonnet-4-5", 200000, true},
		{"anthropic/Claude-3-5-Haiku-Latest", 200000, true},
		{"gemini-2.5-pro", 1048576, true},
		{"gemini-2.0-flash", 1048576, true},
		{"gemini-1.5-pro-002", 2097152, true},
		{"deepseek-chat", 65536, true},
		{"deepseek/deepseek-reasoner", 65536, true},
		{"deepseek-v3.1", 131072, true},
		{"qwen2.5-coder:7b", 32768, true},
		{"ollama/qwen3:32b", 32768, true},
		{"openrouter/qwen/qwen3-coder", 262144, true}, // longest prefix beats qwen3
		{"qwen3-coder:30b", 262144, true},
		{"llama3.1:8b", 131072, true},
		{"llama3.3", 131072, true},
		{"meta-llama/llama-3.1-70b-instruct", 131072, true},
		{"mistral-small", 32768, true},
		{"codestral-latest", 262144, true},
		{"  GPT-4O  ", 128000, true},
		{"", DefaultWindow, false},
		{"phi4", DefaultWindow, false},
		{"my-gpt-4o", DefaultWindow, false}, // a prefix match, not a substring match
	}
	for _, tt := range tests {
		got, known := Window(tt.model)
		if got != tt.want || known != tt.known {
			t.Errorf("Window(%q) = %d, %v; want %d, %v", tt.model, got, known, tt.want, tt.known)
		}
	}
}
