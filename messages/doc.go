// Package messages is troupe's wire contract, in one place: the NATS subject scheme, the v1
// event envelope, every event type with its payload, and the actor messages that travel between
// actors over the bus. Nothing else in troupe builds a subject or an envelope by hand.
//
// Changing a JSON field name here changes the product's contract (the lines of `troupe run
// --json`, what `troupe watch` and any bus client read): add fields, never rename them, and bump
// Version for an incompatible change.
package messages
