//! Medals in words, one way for every screen that shows them: the menu,
//! a room's settings, the lap banner and the results.

use super::hud::clock;
use crate::medals::book::Lookup;
use crate::medals::{Medal, Medals};

/// `gold 0:21.40  silver 0:26.00  bronze 0:37.10`, or what stands in for
/// the targets while they are worked out or where there are none.
pub fn targets(lookup: Lookup) -> String {
    match lookup {
        Lookup::Working => "medals: timing the computer's lap…".into(),
        Lookup::Known(None) => "no medals: the computer laps no lap here".into(),
        Lookup::Known(Some(m)) => [Medal::Gold, Medal::Silver, Medal::Bronze]
            .map(|medal| format!("{medal} {}", clock(Some(m.time(medal)))))
            .join("  "),
    }
}

/// The record (with the medal it earned, or `aided`: a lap the
/// steering aid drove earns none) and the author time:
/// `record 0:20.13 gold  ·  author 0:18.53`.
pub fn record(
    best: Option<f64>,
    kept: Option<Medal>,
    medals: Option<Medals>,
    aided: bool,
) -> String {
    let medal = kept.or_else(|| medals.zip(best).and_then(|(m, t)| m.earned(t)));
    let record = match (best, medal) {
        (Some(t), _) if aided => format!("record {} {}", clock(Some(t)), crate::race::aid::AIDED),
        (Some(t), Some(m)) => format!("record {} {m}", clock(Some(t))),
        (Some(t), None) => format!("record {}", clock(Some(t))),
        (None, _) => "no record yet".into(),
    };
    match medals {
        Some(m) => format!("{record}  ·  author {}", clock(Some(m.time(Medal::Author)))),
        None => record,
    }
}

/// A medal as a banner says it: `GOLD`.
pub fn shout(medal: Medal) -> String {
    medal.name().to_uppercase()
}

/// What a best lap of `best` seconds earned, and the next medal to chase:
/// `GOLD MEDAL  ·  author 0:18.53 next`.
pub fn earned(medals: Medals, best: Option<f64>) -> String {
    let got = best.and_then(|t| medals.earned(t));
    let next = medals.next(best);
    let next = next.map(|m| format!("{m} {} next", clock(Some(medals.time(m)))));
    match (got, next) {
        (Some(g), Some(n)) => format!("{} MEDAL  ·  {n}", shout(g)),
        (Some(g), None) => format!("{} MEDAL", shout(g)),
        (None, Some(n)) => format!("NO MEDAL  ·  {n}"),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medals_read_the_same_everywhere() {
        let m = Medals::of(18.53);
        assert_eq!(
            targets(Lookup::Known(Some(m))),
            "gold 0:21.40  silver 0:26.00  bronze 0:37.10"
        );
        assert_eq!(
            record(Some(20.13), None, Some(m), false),
            "record 0:20.13 gold  ·  author 0:18.53"
        );
        // A lap the steering aid drove earns no medal, whatever its time.
        assert_eq!(
            record(Some(12.08), None, Some(m), true),
            "record 0:12.08 aided  ·  author 0:18.53"
        );
        assert_eq!(record(None, None, None, false), "no record yet");
        assert_eq!(earned(m, Some(25.0)), "SILVER MEDAL  ·  gold 0:21.40 next");
        assert_eq!(earned(m, Some(50.0)), "NO MEDAL  ·  bronze 0:37.10 next");
        assert_eq!(earned(m, Some(18.0)), "AUTHOR MEDAL");
    }
}
