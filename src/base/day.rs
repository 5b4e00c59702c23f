//! A calendar day in UTC, for the Track of the Day: today's from the
//! system clock (read by the front doors, never by the physics or the
//! generator), or one written `YYYY-MM-DD`. Days are counted from
//! 1970-01-01 with Howard Hinnant's civil-date algorithms, so no time-zone
//! database is involved: the day turns at 00:00 UTC everywhere.

use std::fmt;

/// A day of the proleptic Gregorian calendar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day {
    /// Days since 1970-01-01.
    days: i64,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

impl Day {
    /// Today in UTC.
    pub fn today() -> Day {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Day::from_secs(secs)
    }

    /// The UTC day of a Unix time in seconds.
    pub fn from_secs(secs: u64) -> Day {
        Day {
            days: (secs / 86_400) as i64,
        }
    }

    /// The day `year`-`month`-`day`, if there is one.
    pub fn new(year: i64, month: u32, day: u32) -> Option<Day> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in(year, month) {
            return None;
        }
        // days_from_civil (Hinnant).
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day {
            days: era * 146_097 + doe - 719_468,
        })
    }

    /// `YYYY-MM-DD`, or why not.
    pub fn parse(text: &str) -> Result<Day, String> {
        let bad = || format!("{text:?} is not a date: YYYY-MM-DD, for example 2026-12-06");
        let mut parts = text.split('-');
        let (Some(y), Some(m), Some(d), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        if y.len() != 4 || m.len() != 2 || d.len() != 2 {
            return Err(bad());
        }
        let (y, m, d) = (
            y.parse().map_err(|_| bad())?,
            m.parse().map_err(|_| bad())?,
            d.parse().map_err(|_| bad())?,
        );
        Day::new(y, m, d).ok_or_else(bad)
    }

    /// The year, month and day.
    pub fn civil(self) -> (i64, u32, u32) {
        // civil_from_days (Hinnant).
        let z = self.days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        (yoe + era * 400 + i64::from(m <= 2), m, d)
    }

    /// The day before.
    pub fn before(self) -> Day {
        Day {
            days: self.days - 1,
        }
    }

    /// The day after.
    pub fn after(self) -> Day {
        Day {
            days: self.days + 1,
        }
    }

    /// The Unix time in seconds at which the day begins (00:00 UTC; 0
    /// for a day before 1970).
    pub fn start_secs(self) -> u64 {
        u64::try_from(self.days).map_or(0, |d| d * 86_400)
    }

    /// The day as a menu says it: `Dec 6`.
    pub fn short(self) -> String {
        let (_, m, d) = self.civil();
        format!("{} {d}", MONTHS[m as usize - 1])
    }
}

fn days_in(year: i64, month: u32) -> u32 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.civil();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_count_from_1970() {
        assert_eq!(Day::new(1970, 1, 1).unwrap().days, 0);
        assert_eq!(Day::new(2000, 3, 1).unwrap().days, 11_017);
        // 2026-12-06 00:00 UTC.
        assert_eq!(Day::from_secs(1_796_515_200).to_string(), "2026-12-06");
        assert_eq!(Day::from_secs(1_796_515_199).to_string(), "2026-12-05");
        let day = Day::from_secs(1_796_515_200);
        assert_eq!(day.start_secs(), 1_796_515_200);
        assert_eq!(Day::from_secs(day.after().start_secs() - 1), day);
        assert_eq!(day.after().before(), day);
        assert_eq!(
            Day::parse("2026-12-31").unwrap().after().to_string(),
            "2027-01-01"
        );
    }

    #[test]
    fn a_date_is_read_and_written_back() {
        for day in (-719_000..2_900_000).step_by(997).map(|days| Day { days }) {
            assert_eq!(Day::parse(&day.to_string()), Ok(day), "{day}");
        }
        assert_eq!(Day::parse("2024-02-29").unwrap().short(), "Feb 29");
        assert_eq!(
            Day::parse("2026-01-01").unwrap().before().to_string(),
            "2025-12-31"
        );
    }

    #[test]
    fn what_is_not_a_date_says_so() {
        for bad in [
            "",
            "2026-13-01",
            "2025-02-29",
            "2026-1-1",
            "26-01-01",
            "2026-01-01-",
            "x",
        ] {
            let why = Day::parse(bad).unwrap_err();
            assert!(why.contains("YYYY-MM-DD"), "{bad}: {why}");
        }
    }
}
