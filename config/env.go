package config

// stringSetting is a top-level string setting the environment and flags can override.
type stringSetting struct {
	field, env, flag string
	ptr              func(*Config) *string
}

// overridable lists the settings TROUPE_* variables and flags override.
func overridable() []stringSetting {
	return []stringSetting{
		{"Model", "TROUPE_MODEL", "--model", func(c *Config) *string { return &c.Model }},
		{"BaseURL", "TROUPE_BASE_URL", "--base-url", func(c *Config) *string { return &c.BaseURL }},
		{"Mode", "TROUPE_MODE", "--mode", func(c *Config) *string { return &c.Mode }},
		{"Sandbox", "TROUPE_SANDBOX", "--sandbox", func(c *Config) *string { return &c.Sandbox }},
		{"NATS", "TROUPE_NATS", "--nats", func(c *Config) *string { return &c.NATS }},
		{"Agents.Placement", "TROUPE_PLACEMENT", "--placement", func(c *Config) *string { return &c.Agents.Placement }},
	}
}

// applyEnv applies the non-empty TROUPE_* variables.
func (c *Config) applyEnv(getenv func(string) string) {
	for _, s := range overridable() {
		if val := getenv(s.env); val != "" {
			c.setString(s.field, s.ptr(c), val, "env "+s.env)
			c.Sources = append(c.Sources, "env "+s.env)
		}
	}
	c.applyBusEnv(getenv)
}

// Overrides are the command-line flags that override configuration; empty (zero, nil) means
// "not given".
type Overrides struct {
	Model, BaseURL, Mode, Sandbox, NATS string
	// Placement (--placement) replaces [agents] placement.
	Placement string
	// NATSCreds (--nats-creds) replaces [bus] creds when non-empty.
	NATSCreds string
	// Check replaces [done] check when non-nil: --check "" turns a configured check off.
	Check *string
	// ContextWindow (--context-window) and MaxRefusals (--max-refusals) replace [context]
	// window and [done] max_refusals when non-zero.
	ContextWindow, MaxRefusals int
}

// Apply applies the flags that were given: the top layer. Call Validate afterwards.
func (c *Config) Apply(o Overrides) {
	given := map[string]string{"Model": o.Model, "BaseURL": o.BaseURL, "Mode": o.Mode, "Sandbox": o.Sandbox, "NATS": o.NATS, "Agents.Placement": o.Placement}
	for _, s := range overridable() {
		if val := given[s.field]; val != "" {
			c.setString(s.field, s.ptr(c), val, "flag "+s.flag)
			c.Sources = append(c.Sources, "flag "+s.flag)
		}
	}
	if o.NATSCreds != "" {
		c.setString("Bus.Creds", &c.Bus.Creds, o.NATSCreds, "flag --nats-creds")
		c.Sources = append(c.Sources, "flag --nats-creds")
	}
	if o.Check != nil {
		c.setString("Done.Check", &c.Done.Check, *o.Check, "flag --check")
		c.Sources = append(c.Sources, "flag --check")
	}
	for _, n := range []struct {
		field, flag string
		val         int
		dst         *int
	}{
		{"Context.Window", "--context-window", o.ContextWindow, &c.Context.Window},
		{"Done.MaxRefusals", "--max-refusals", o.MaxRefusals, &c.Done.MaxRefusals},
	} {
		if n.val != 0 {
			*n.dst = n.val
			c.setOrigin(n.field, "flag "+n.flag)
			c.Sources = append(c.Sources, "flag "+n.flag)
		}
	}
}
