//! The title menu's state: which row the cursor is on and what each row
//! has selected, and how the menu's keys change them. What the selection
//! means (tracks, presets, records) is the app's.

use crate::keys::Command;
use crate::models::ModelKind;

/// What the title menu has selected.
#[derive(Debug, Clone, PartialEq)]
pub struct Menu {
    /// The row the cursor is on.
    pub row: Row,
    pub track: usize,
    pub model: ModelKind,
    /// 0: the model's own preset; then the presets in order.
    pub car: usize,
    /// 0: the track's own number of laps.
    pub laps: u32,
    /// Computer cars, 0 to 7.
    pub opponents: usize,
}

/// The title menu's rows, top to bottom: the menu's keys move through
/// them in this order and the screen draws them in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Track,
    Model,
    Car,
    Laps,
    Rivals,
    Start,
}

impl Row {
    pub const ALL: [Row; 6] = [
        Row::Track,
        Row::Model,
        Row::Car,
        Row::Laps,
        Row::Rivals,
        Row::Start,
    ];

    /// The row `d` rows down (up if negative), wrapping.
    fn moved(self, d: i64) -> Row {
        let i = Row::ALL.iter().position(|&r| r == self).unwrap_or(0);
        Row::ALL[wrap(i, d, Row::ALL.len())]
    }
}

impl Menu {
    /// Applies a menu key: Up and Down move the cursor, Left and Right
    /// change the row's selection among `tracks` tracks and `cars` car
    /// choices. Returns whether the selection changed (Left or Right).
    pub fn apply(&mut self, cmd: Command, tracks: usize, cars: usize) -> bool {
        let d = match cmd {
            Command::Up => {
                self.row = self.row.moved(-1);
                return false;
            }
            Command::Down => {
                self.row = self.row.moved(1);
                return false;
            }
            Command::Left => -1,
            Command::Right => 1,
            _ => return false,
        };
        match self.row {
            Row::Track => self.track = wrap(self.track, d, tracks),
            Row::Model => {
                let i = ModelKind::ALL
                    .iter()
                    .position(|&k| k == self.model)
                    .unwrap_or(0);
                self.model = ModelKind::ALL[wrap(i, d, ModelKind::ALL.len())];
            }
            Row::Car => self.car = wrap(self.car, d, cars),
            Row::Laps => self.laps = wrap(self.laps as usize, d, 100) as u32,
            Row::Rivals => self.opponents = wrap(self.opponents, d, 8),
            Row::Start => {}
        }
        true
    }
}

/// `i + d` wrapped into `0..n`.
fn wrap(i: usize, d: i64, n: usize) -> usize {
    (i as i64 + d).rem_euclid(n as i64) as usize
}
