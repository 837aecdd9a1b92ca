// Package actors is troupe's runtime: the Node (embedded NATS bus, Badger store, protoactor-go
// actor system), the Supervisor that owns sessions, the Session actor that runs the turn state
// machine, the ToolExec actor that runs tool calls, and the Bridge that binds actors to their
// bus subjects. Actors talk to each other through the bus (messages.Encode on inbox subjects),
// so a child could live in another process without its parent knowing.
package actors
