//! The steering aid for keyboards that send no key releases
//! (docs/TERMINAL.md, "The steering aid"): when it drives, at what pace,
//! and how a lap it drove is marked. Its driving is `ai::aid`'s.
//!
//! Such a keyboard cannot say how long a key was held: a tap and the
//! first half second of a hold are the same byte, and a key let go under
//! a newer one is silence. A player who corrects with short taps, or who
//! waits before pressing a new key, gets much more or much less steering
//! than they meant, and weaves down every straight. So while a seat's
//! terminal has sent no release, the car steers itself along the race's
//! racing line and the steering keys move it across the road from there,
//! up to [`SIDE`] metres, never off it.
//!
//! It holds the car to the Medium rival's pace ([`pace`]), slowing it
//! where it is past it; the player may brake harder. Steered for, a W
//! held alone at the line's full speed lapped `pocket` 30% under the
//! author time (issue 60). Held to a pace found by driving the aid itself
//! (`medals::work_out`), W alone laps a little over the silver time on
//! every track: the aid is help to get round, not a way to the top of a
//! board. An aided lap earns no medal and goes on boards of its own
//! (`Record::aided`); the panel says AID while it steers; `t` turns it
//! off and on.

pub use crate::ai::aid::{Aiding, Pace, SIDE, of};
use crate::race::medals::{Medal, Medals, guessed_pace};

/// How every list and board marks a lap driven with the aid.
pub const AIDED: &str = "aided";

/// `AIDED` after two spaces for an aided lap, nothing for another: the
/// mark as a board's row ends with it.
pub fn mark(aided: bool) -> &'static str {
    if aided { "  aided" } else { "" }
}

/// The medal whose time the aid laps in at the most: the Medium rivals'
/// (silver).
pub const RIVALS: Medal = Medal::Silver;

/// Of the rivals' pace guessed before a car's medals are known, the
/// share the aid drives at: the guess laps some 5 to 15% fast
/// (`Medals::pace`), and the aid a little faster than the computer at
/// the same pace.
const UNSURE: f64 = 0.8;

/// The pace at which the aid drives a car whose medals are `medals`
/// (none while they are unknown): as worked out for it
/// ([`Medals::aid`]), else a cautious guess.
pub fn pace(medals: Option<Medals>) -> f64 {
    medals
        .and_then(|m| m.aid)
        .unwrap_or_else(|| guessed_pace(RIVALS) * UNSURE)
}
