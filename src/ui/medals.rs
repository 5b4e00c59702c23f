//! Medals in words, one way for every screen that shows them: the menu,
//! a room's settings, the lap banner and the results.

use super::hud::clock;
use crate::race::medals::book::Lookup;
use crate::race::medals::{Medal, Medals};

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

/// The record (with the medal it earned) and the author time: `record
/// 0:20.13 gold  ·  author 0:18.53`; the record on the aided board
/// after it instead of the author time, where there are both (`record
/// 0:20.13 gold  ·  aided 0:15.02`: the line fits the menu's box at
/// 80x24); an aided record alone reads `record 0:15.02 aided` (a lap the
/// steering aid drove earns no medal).
pub fn record(
    best: Option<f64>,
    kept: Option<Medal>,
    medals: Option<Medals>,
    aided: Option<f64>,
) -> String {
    let medal = kept.or_else(|| medals.zip(best).and_then(|(m, t)| m.earned(t)));
    let mark = crate::race::aid::AIDED;
    let record = match (best, medal, aided) {
        (None, _, Some(a)) => format!("record {} {mark}", clock(Some(a))),
        (None, _, None) => "no record yet".into(),
        (Some(t), Some(m), _) => format!("record {} {m}", clock(Some(t))),
        (Some(t), None, _) => format!("record {}", clock(Some(t))),
    };
    if let (Some(_), Some(a)) = (best, aided) {
        return format!("{record}  ·  {mark} {}", clock(Some(a)));
    }
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
            record(Some(20.13), None, Some(m), None),
            "record 0:20.13 gold  ·  author 0:18.53"
        );
        // A lap the steering aid drove earns no medal, whatever its time.
        assert_eq!(
            record(None, None, Some(m), Some(12.08)),
            "record 0:12.08 aided  ·  author 0:18.53"
        );
        // Beside a record driven by hand, on its own board.
        assert_eq!(
            record(Some(20.13), None, Some(m), Some(12.08)),
            "record 0:20.13 gold  ·  aided 0:12.08"
        );
        assert_eq!(record(None, None, None, None), "no record yet");
        assert_eq!(earned(m, Some(25.0)), "SILVER MEDAL  ·  gold 0:21.40 next");
        assert_eq!(earned(m, Some(50.0)), "NO MEDAL  ·  bronze 0:37.10 next");
        assert_eq!(earned(m, Some(18.0)), "AUTHOR MEDAL");
    }
}
