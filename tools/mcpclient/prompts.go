package mcpclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxPrompts bounds one listing of a server's prompts.
const maxPrompts = 500

// Prompt is one prompt a server offers, with its arguments in the server's order.
type Prompt struct {
	Name, Description string
	Arguments         []PromptArgument
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// HasPrompts says the server declared the prompts capability at initialize.
func (c *Conn) HasPrompts() bool {
	init := c.session.InitializeResult()
	return init != nil && init.Capabilities != nil && init.Capabilities.Prompts != nil
}

// Prompts lists the server's prompts (all pages, up to maxPrompts); a server without the
// prompts capability has none.
func (c *Conn) Prompts(ctx context.Context) ([]Prompt, error) {
	if !c.HasPrompts() {
		return nil, nil
	}
	var out []Prompt
	for p, err := range c.session.Prompts(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcp server %s: list prompts: %w", c.name, err)
		}
		if len(out) == maxPrompts {
			break
		}
		desc := p.Description
		if desc == "" {
			desc = p.Title
		}
		pr := Prompt{Name: p.Name, Description: desc}
		for _, a := range p.Arguments {
			if a != nil {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
		}
		out = append(out, pr)
	}
	return out, nil
}

// GetPrompt asks for a prompt with its arguments filled: its messages as one text (a
// message the server gives the assistant's role is marked so), images apart, as a tool
// result's.
func (c *Conn) GetPrompt(ctx context.Context, name string, args map[string]string) (Result, error) {
	res, err := c.session.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return Result{}, err
	}
	var out Result
	var parts []string
	for _, m := range res.Messages {
		if m == nil || m.Content == nil {
			continue
		}
		one := ResultOf(&mcp.CallToolResult{Content: []mcp.Content{m.Content}})
		out.Images = append(out.Images, one.Images...)
		if one.Text == "" {
			continue
		}
		if m.Role == "assistant" {
			one.Text = "(the assistant, as the prompt writes it:) " + one.Text
		}
		parts = append(parts, one.Text)
	}
	out.Text = strings.Join(parts, "\n\n")
	return out, nil
}
