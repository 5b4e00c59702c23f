//! The tracks that ship inside the binary, so `skid` works from any
//! directory. The files stay readable (and editable copies can be made) in
//! `tracks/`.

use super::Track;
use super::course::{Raceable, raceable};

/// (name, file contents) of every bundled track, in menu order.
pub const TRACKS: &[(&str, &str)] = &[
    ("pocket", include_str!("../../tracks/pocket.track")),
    ("oval", include_str!("../../tracks/oval.track")),
    ("hairpins", include_str!("../../tracks/hairpins.track")),
    ("rally", include_str!("../../tracks/rally.track")),
    ("eight", include_str!("../../tracks/eight.track")),
    ("grandprix", include_str!("../../tracks/grandprix.track")),
];

/// The track `skid` starts on when none is named.
pub const DEFAULT: &str = "pocket";

/// Parses a bundled track by name.
pub fn load(name: &str) -> Option<Track> {
    let (_, src) = TRACKS.iter().find(|(n, _)| *n == name)?;
    // Bundled tracks are validated by the test suite; a parse failure here
    // would be a build defect, reported as "not found" rather than a panic.
    super::parse(&format!("tracks/{name}.track"), src.as_bytes()).ok()
}

/// A bundled track by name, with its lap checks passed.
pub fn load_raceable(name: &str) -> Option<Raceable> {
    raceable(load(name)?, name).ok()
}
