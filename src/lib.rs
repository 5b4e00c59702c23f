//! skid: a top-down racing game for the terminal.
//!
//! The library holds every rule of the game so that it can be tested without
//! a terminal; the `skid` binary only parses the command line and calls in.

pub mod ai;
pub mod app;
pub mod camera;
pub mod car;
pub mod cli;
pub mod clock;
pub mod console;
pub mod damage;
pub mod diag;
pub mod files;
pub mod game;
pub mod input;
pub mod keyboard;
pub mod keys;
pub mod layout;
pub mod medals;
pub mod models;
pub mod person;
pub mod physics;
pub mod race;
pub mod records;
pub mod script;
#[cfg(feature = "serve")]
pub mod serve;
pub mod session;
pub mod signals;
pub mod term;
pub mod threads;
pub mod timing;
pub mod track;
pub mod trig;
pub mod ui;
pub mod world;
