//! The tracks a server offers, each with what its races need worked out
//! once: the racing line and the content id that records are kept under.

use crate::race::TrackChoice;

/// A track the lobby offers, with its racing line and content id.
#[derive(Clone)]
pub struct Offered {
    pub choice: TrackChoice,
    pub line: crate::ai::Line,
    pub id: String,
}

impl Offered {
    /// Works out the racing line (the costly part, once per server).
    pub fn new(choice: TrackChoice) -> Offered {
        Offered {
            line: crate::ai::race_line(&choice.track),
            id: choice.track.content_id(),
            choice,
        }
    }
}
