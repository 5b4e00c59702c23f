use std::time::{Duration, Instant};

use super::*;
use crate::serve::db::Shelved;
use crate::serve::hub::Settings;
use crate::serve::keeper::Keeper;
use crate::track::bundled;

/// A bundled track as a player's published track, `name` by `owner`.
fn players(bundled: &str, name: &str, owner: &str) -> PlayersTrack {
    let choice = TrackChoice {
        name: name.into(),
        track: bundled::load_raceable(bundled).unwrap(),
    };
    let offered = Offered::new(choice);
    PlayersTrack {
        shelved: Shelved {
            owner: owner.into(),
            name: name.into(),
            maker: owner.into(),
            track_id: offered.id.clone(),
            published: true,
            saved_at: 1,
        },
        offered,
    }
}

/// A hub offering pocket and oval, its records in a fresh directory.
fn hub(name: &str) -> Hub {
    let dir = std::env::temp_dir().join(format!("skid-build-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tracks = ["pocket", "oval"].map(|t| {
        Offered::new(TrackChoice {
            name: t.into(),
            track: bundled::load_raceable(t).unwrap(),
        })
    });
    let settings = Settings {
        hz: 120,
        fps: 30,
        idle: Duration::from_mins(5),
        keys_at_once: true,
    };
    Hub::new(
        tracks.into(),
        settings,
        Keeper::open(&dir).unwrap(),
        Instant::now(),
    )
}

/// A track's name is kept as players' names are: visible characters,
/// not empty or too long, never one that looks like another maker's
/// published track's (a Cyrillic `А` passes for a Latin `A`); the
/// maker's own name is theirs to save again.
#[test]
fn a_track_name_is_vetted_as_players_names_are() {
    let published = [players("pocket", "Ann Ring", "SHA256:ann")];
    assert_eq!(
        vetted("  Loop ", "SHA256:ben", &published).as_deref(),
        Ok("Loop")
    );
    assert_eq!(
        vetted("Ann Ring", "SHA256:ann", &published).as_deref(),
        Ok("Ann Ring")
    );
    for bad in ["", "   ", "tab\there", "bell\u{7}", &"x".repeat(41)] {
        assert!(vetted(bad, "SHA256:ben", &published).is_err(), "{bad:?}");
    }
    let why = vetted("\u{410}nn Ring", "SHA256:ben", &published).unwrap_err();
    assert!(why.contains("another maker's"), "{why}");
}

/// Published tracks are offered after the server's own, in the lobby
/// of everyone but their maker; a room on one that is taken back goes
/// to the server's first, while a race on it keeps it to its end.
#[test]
fn published_tracks_come_after_the_servers_and_go_without_taking_a_race() {
    let mut hub = hub("published");
    let (ring, eight) = (
        players("hairpins", "Ring", "SHA256:ann"),
        players("eight", "Eight", "SHA256:ben"),
    );
    hub.published(vec![ring.clone(), eight.clone()]);
    let names: Vec<_> = hub.tracks.iter().map(|t| t.choice.name.as_str()).collect();
    assert_eq!(names, ["pocket", "oval", "Ring", "Eight"]);
    // Two rooms on Eight; one races on it.
    for r in [1, 2] {
        hub.rooms.insert(r, Room::new(r, r.into(), "x".into(), 3));
    }
    let offered = hub.tracks[3].clone();
    let race = hub.rooms.get_mut(&2).unwrap();
    race.start(offered, &hub.cars, 120, |_| crate::input::Held::default());
    // Ben's own track is not among his lobby's players' tracks.
    let (out, _frames) = tokio::sync::mpsc::channel(1);
    let join = |id, who: &str| crate::serve::hub::ToHub::Join {
        id,
        name: who.into(),
        identity: Some(format!("SHA256:{who}")),
        size: (80, 24),
        color: false,
        room: None,
        out: out.clone(),
    };
    hub.apply(join(10, "ben"), Instant::now());
    hub.apply(join(11, "cat"), Instant::now());
    assert_eq!(
        (hub.lobby_rows(10).tracks, hub.lobby_rows(11).tracks),
        (1, 2)
    );
    assert_eq!(hub.players_track(10, 0), Some(2), "ben's first is ann's");
    assert_eq!(hub.players_track(11, 1), Some(3));
    // Eight taken back: the waiting room goes to pocket; the race keeps it.
    hub.published(vec![ring]);
    assert_eq!(hub.tracks.len(), 3);
    assert_eq!(hub.rooms[&1].menu.track, 0);
    let racing = &hub.rooms[&2];
    assert_eq!(racing.offered(&hub.tracks).choice.name, "Eight");
    assert_eq!(hub.lobby_rows(11).tracks, 1);
}
