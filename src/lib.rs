//! skid: a top-down racing game for the terminal.
//!
//! The library holds every rule of the game so that it can be tested without
//! a terminal; the `skid` binary only parses the command line and calls in.
//!
//! Its modules are its layers, from the bottom up: each imports only those
//! above it here (docs/DESIGN.md, "Layout"; `tests/layout.rs` holds the
//! code to it).

// What knows nothing of racing.
pub mod base;

// The track: its format, its surfaces and walls, whether it can be raced.
pub mod track;

// The car on a fixed step: the five models and the car presets.
pub mod physics;

// Keys, from a terminal's bytes to the controls held.
pub mod input;

// Computer drivers and the racing line.
pub mod ai;

// One race for both front doors: its world, laps, records and people.
pub mod race;

// A screen and keyboard wherever they are, and a frame's bytes.
pub mod console;

// Drawing, for neither front door.
pub mod ui;

// Local play: the game as a state machine, its loop and its terminal.
pub mod app;

// `skid serve`: SSH, the hub, rooms, relays and the laps' database.
#[cfg(feature = "serve")]
pub mod serve;

// The command line, which hands each command to the layer that does it.
pub mod cli;
