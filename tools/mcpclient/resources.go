package mcpclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxResources bounds one listing: a server with more gets the first ones and a line saying so.
const maxResources = 500

// HasResources says the server declared the resources capability at initialize.
func (c *Conn) HasResources() bool {
	init := c.session.InitializeResult()
	return init != nil && init.Capabilities != nil && init.Capabilities.Resources != nil
}

// ListResources is the server's resources as lines "uri — name (mime): description", the
// model's view of resources/list (all pages, up to maxResources).
func (c *Conn) ListResources(ctx context.Context) (Result, error) {
	var lines []string
	for r, err := range c.session.Resources(ctx, nil) {
		if err != nil {
			return Result{}, err
		}
		if len(lines) == maxResources {
			lines = append(lines, fmt.Sprintf("(more resources not listed: the first %d are shown)", maxResources))
			break
		}
		line := r.URI
		if r.Name != "" {
			line += " — " + r.Name
		}
		if r.MIMEType != "" {
			line += " (" + r.MIMEType + ")"
		}
		if r.Description != "" {
			line += ": " + strings.Join(strings.Fields(r.Description), " ")
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return Result{Text: "the server lists no resources"}, nil
	}
	return Result{Text: strings.Join(lines, "\n")}, nil
}

// ReadResource reads one resource: text contents as they are, images apart (as a tool
// result's), other binary contents as a line saying what they are.
func (c *Conn) ReadResource(ctx context.Context, uri string) (Result, error) {
	res, err := c.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return Result{}, err
	}
	var out Result
	var parts []string
	for _, rc := range res.Contents {
		switch {
		case rc == nil:
		case rc.Text != "" || len(rc.Blob) == 0:
			parts = append(parts, rc.Text)
		case strings.HasPrefix(rc.MIMEType, "image/") && len(out.Images) < maxImages && len(rc.Blob) <= maxImageBytes:
			out.Images = append(out.Images, Image{MediaType: rc.MIMEType, Data: rc.Blob})
		default:
			parts = append(parts, fmt.Sprintf("[%s: %s, %d bytes of binary content, not shown]", rc.URI, rc.MIMEType, len(rc.Blob)))
		}
	}
	out.Text = strings.Join(parts, "\n")
	return out, nil
}
