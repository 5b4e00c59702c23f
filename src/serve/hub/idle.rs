//! Idle players: told before they are cut off. A player is idle while
//! nobody in their place presses a key: in a room, a key from anyone in
//! it (the host changing the settings, someone joining, a racer) keeps
//! everyone there, since the ones waiting for the race are watching it
//! change. For the last [`warn_for`] of `--idle-timeout` the screen says
//! how long is left, counting down, with a bell when it starts; any key
//! ends it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::Player;
use crate::serve::room::Place;

/// How long before the cut the player is warned: a minute, or a third of
/// the timeout if that is shorter.
pub fn warn_for(idle: Duration) -> Duration {
    (idle / 3).min(Duration::from_mins(1))
}

/// The whole seconds left before the cut, while the player is warned
/// (`quiet`: how long nobody in their place pressed a key).
pub fn left(quiet: Duration, idle: Duration) -> Option<u64> {
    let left = idle.checked_sub(quiet)?;
    (left <= warn_for(idle)).then(|| left.as_secs_f64().ceil() as u64)
}

/// The newest key pressed in each room, by anyone in it.
pub fn rooms_last_key<'a>(players: impl Iterator<Item = &'a Player>) -> HashMap<u32, Instant> {
    let mut last: HashMap<u32, Instant> = HashMap::new();
    for p in players {
        if let Place::Room(r) = p.place {
            let at = last.entry(r).or_insert(p.last_key);
            *at = (*at).max(p.last_key);
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warning_comes_in_the_last_minute_or_third() {
        let five_min = Duration::from_mins(5);
        assert_eq!(left(Duration::from_secs(200), five_min), None);
        assert_eq!(left(Duration::from_mins(4), five_min), Some(60));
        assert_eq!(left(Duration::from_millis(299_500), five_min), Some(1));
        assert_eq!(left(five_min, five_min), Some(0));
        let twenty = Duration::from_secs(20);
        assert_eq!(left(Duration::from_secs(13), twenty), None);
        assert_eq!(left(Duration::from_secs(14), twenty), Some(6));
    }
}
