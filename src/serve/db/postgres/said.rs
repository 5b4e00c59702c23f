//! How the log names a PostgreSQL database and what went wrong with it:
//! its address without the password, and an error with its causes.

use tokio_postgres::Error;

/// `url` without its password, as the log names the database: neither
/// the one after the user name (up to the last `@`, so that one with an
/// `@` of its own is dropped whole) nor a `password=` parameter.
pub(super) fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (user, place) = match rest.rsplit_once('@') {
        Some((who, place)) => (format!("{}@", who.split(':').next().unwrap_or("")), place),
        None => (String::new(), rest),
    };
    let place = match place.split_once('?') {
        Some((path, query)) => {
            let secret = |p: &&str| {
                p.split('=')
                    .next()
                    .is_some_and(|k| k.eq_ignore_ascii_case("password"))
            };
            let kept: Vec<&str> = query.split('&').filter(|p| !secret(p)).collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => place.to_string(),
    };
    format!("{scheme}://{user}{place}")
}

/// `e` and what caused it, for the log and the operator: the driver's
/// own words ("db error", "error connecting to server") say nothing of
/// why; the cause does (a password refused, a database missing, the
/// connection refused).
pub(super) fn why(e: &Error) -> String {
    let mut out = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_names_the_database_without_its_password() {
        assert_eq!(
            super::shown("postgres://skid:secret@db.example:5432/skid"),
            "postgres://skid@db.example:5432/skid"
        );
        assert_eq!(super::shown("postgres://db/skid"), "postgres://db/skid");
        assert_eq!(
            super::shown("postgres://skid:p@ss:w@rd@db/skid?sslmode=disable"),
            "postgres://skid@db/skid?sslmode=disable"
        );
        assert_eq!(
            super::shown("postgresql://db/skid?user=skid&Password=secret&connect_timeout=5"),
            "postgresql://db/skid?user=skid&connect_timeout=5"
        );
        assert_eq!(
            super::shown("postgres://skid@db/skid?password=secret"),
            "postgres://skid@db/skid"
        );
    }
}
