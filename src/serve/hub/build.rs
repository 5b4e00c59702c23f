//! Players building tracks on the server (docs/SERVE.md, "Players'
//! tracks"): the editor reached from the lobby, `skid edit`'s own
//! ([`Editor`], [`Editor::event`]); the drawing tried in a room of the
//! maker's own, its racing line worked out on a thread first; tracks
//! kept, opened, published and taken back through the records' thread
//! (the hub never waits on the database); and the published tracks,
//! read there, offered after the server's own.

use std::path::PathBuf;
use std::sync::mpsc::channel;
use std::time::Instant;

use ratatui::crossterm::event::Event;

use crate::physics::ModelKind;
use crate::race::edit::keep::Served;
use crate::race::edit::{Asked, Editor};
use crate::race::medals::Medal;
use crate::race::{Menu, TrackChoice};
use crate::track::draft::Draft;

use super::super::db::{Publishing, Shelving, ToShelve};
use super::super::keeper::{PlayersTrack, TrackJob, TrackNews};
use super::super::messages::to_size;
use super::super::names::{looks_like, visible};
use super::super::room::{Place, PlayerId, Room};
use super::super::rows::theirs;
use super::player::Builder;
use super::{Hub, Offered};

/// Tracks a player keeps on a server at the most.
pub const MOST_TRACKS: usize = 20;
/// The largest map a server's editor makes: columns, rows.
pub const LARGEST: (usize, usize) = (200, 100);
/// The largest track file a server keeps, bytes.
pub const MOST_BYTES: usize = 64 * 1024;
/// The longest track name a server keeps, characters.
const NAME_CHARS: usize = 40;
/// A new drawing's size.
pub const NEW: (usize, usize) = (60, 20);

/// `name` as a server keeps it for `owner`, or why not: visible
/// characters only (as players' names, `super::super::names`), not
/// empty or too long, and not one that looks like another maker's
/// published track's (`published`).
pub fn vetted(name: &str, owner: &str, published: &[PlayersTrack]) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || !name.chars().all(visible) || name.chars().count() > NAME_CHARS {
        return Err(format!(
            "{name:?}: a track's name is 1 to {NAME_CHARS} letters, digits, signs or spaces (n)"
        ));
    }
    let taken =
        (published.iter()).any(|t| t.shelved.owner != owner && looks_like(&t.shelved.name, name));
    if taken {
        return Err(format!(
            "{name:?} is another maker's published track: choose another name (n)"
        ));
    }
    Ok(name.to_string())
}

impl Hub {
    /// Opens the editor for `id` on `draft`, kept on the server as
    /// `name` (`published` or not) if it is theirs.
    pub(super) fn open_editor(&mut self, id: PlayerId, draft: Draft, name: &str, published: bool) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let mut editor = Editor::new(draft, PathBuf::from(name), true);
        editor.served = Some(Served {
            keyed: p.identity.is_some(),
            published,
            saving: None,
        });
        editor.largest = LARGEST;
        let size = to_size(p.session.size);
        editor.resize(size.width, size.height);
        if p.identity.is_none() {
            editor.note = Some(crate::race::edit::keep::GUEST.into());
        }
        p.build = Some(Box::new(Builder {
            editor,
            trying: None,
        }));
        p.place = Place::Edit;
        p.clear = true;
        p.mouse = Some(true);
        eprintln!("skid serve: {} (player {id}) builds a track", p.name);
    }

    /// A key or mouse report from `id` in the editor, at `at`.
    pub(super) fn edit_event(&mut self, id: PlayerId, ev: &Event, at: Instant) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let Some(b) = p.build.as_mut() else {
            return;
        };
        p.last_key = at;
        p.urgent = true;
        p.session.dirty = true;
        match b.editor.event(ev) {
            Some(Asked::Leave) => {
                p.build = None;
                p.place = Place::Lobby { row: 0 };
                p.clear = true;
                p.mouse = Some(false);
            }
            Some(Asked::Drive) => try_drawing(b, b.editor.draft.text()),
            Some(Asked::DriveHere(heading)) => try_drawing(b, b.editor.text_from_cursor(heading)),
            Some(Asked::Save) => self.save_drawing(id),
            Some(Asked::Publish) => self.publish_drawing(id),
            Some(Asked::Nothing) | None => {}
        }
    }

    /// `id`'s drawing to the records' thread to keep, if its name and
    /// size are within the server's limits; else why not, said.
    fn save_drawing(&mut self, id: PlayerId) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let (Some(identity), Some(b)) = (&p.identity, p.build.as_mut()) else {
            return;
        };
        let editor = &mut b.editor;
        let saving = editor.served.as_ref().and_then(|s| s.saving.clone());
        let Some((text, raceable)) = saving else {
            return;
        };
        let name = editor.name().unwrap_or_default();
        let (w, h) = editor.draft.size();
        let kept = vetted(&name, identity, &self.players_tracks).and_then(|name| {
            if w > LARGEST.0 || h > LARGEST.1 || text.len() > MOST_BYTES {
                return Err(format!(
                    "a server keeps tracks of {}x{} cells at the most (x)",
                    LARGEST.0, LARGEST.1
                ));
            }
            Ok(name)
        });
        match kept {
            Err(why) => editor.kept(text, raceable, Err(why)),
            Ok(name) => {
                self.keeper.tracks(TrackJob::Save {
                    player: id,
                    track: ToShelve {
                        owner: identity.clone(),
                        name,
                        maker: p.name.clone(),
                        body: text,
                        track_id: String::new(),
                    },
                    most: MOST_TRACKS,
                });
            }
        }
    }

    /// `id`'s track kept, published (or taken back) by the records'
    /// thread.
    fn publish_drawing(&mut self, id: PlayerId) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let (Some(identity), Some(b)) = (&p.identity, p.build.as_mut()) else {
            return;
        };
        let on = !b.editor.served.as_ref().is_some_and(|s| s.published);
        b.editor.note = Some(
            if on {
                "publishing…"
            } else {
                "taking it back…"
            }
            .into(),
        );
        self.keeper.tracks(TrackJob::Publish {
            player: id,
            owner: identity.clone(),
            name: b.editor.name().unwrap_or_default(),
            on,
        });
    }

    /// The offered track (its number among the hub's) of the `i`-th
    /// published track another maker than `id` made, as `id`'s lobby
    /// lists them.
    pub(super) fn players_track(&self, id: PlayerId, i: usize) -> Option<usize> {
        let me = self.players.get(&id).and_then(|p| p.identity.as_deref());
        let (at, _) = theirs(&self.players_tracks, me).nth(i)?;
        Some(self.base_tracks + at)
    }

    /// `id`'s `i`-th own track asked for, to open in the editor.
    pub(super) fn open_mine(&mut self, id: PlayerId, i: usize) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let (Some(owner), Some(t)) = (p.identity.clone(), p.shelf.get(i)) else {
            return;
        };
        p.note = Some(format!("opening {}…", t.name));
        let name = t.name.clone();
        self.keeper.tracks(TrackJob::Open {
            player: id,
            owner,
            name,
        });
    }

    /// Asks for `id`'s own tracks (a guest has none).
    pub(super) fn ask_mine(&self, id: PlayerId) {
        if let Some(owner) = self.players.get(&id).and_then(|p| p.identity.clone()) {
            self.keeper.tracks(TrackJob::Mine { player: id, owner });
        }
    }

    /// Each turn: what the editors' threads said (checks, racing lines,
    /// medals), and drawings ready to try, each in a room of its
    /// maker's own.
    pub(super) fn poll_builders(&mut self) {
        let mut ready = Vec::new();
        for (&id, p) in &mut self.players {
            let Some(b) = &mut p.build else { continue };
            if b.editor.poll() {
                p.session.dirty = true;
            }
            let made = b.trying.as_ref().and_then(|rx| rx.try_recv().ok());
            match made {
                Some(Ok(offered)) if p.place == Place::Edit => ready.push((id, offered)),
                Some(Err(why)) => b.editor.note = Some(why),
                _ => continue,
            }
            b.trying = None;
            p.session.dirty = true;
        }
        for (id, offered) in ready {
            self.start_trial(id, offered);
        }
    }

    /// `id` drives their drawing, `offered`, alone in a room of their
    /// own (listed in no lobby); leaving it takes them back to the
    /// editor as it was.
    fn start_trial(&mut self, id: PlayerId, offered: Offered) {
        let Some(p) = self.players.get_mut(&id) else {
            return;
        };
        let r = self.next_room;
        self.next_room += 1;
        let mut room = Room::new(r, id, p.name.clone(), 0);
        room.trial = Some(offered);
        if let Some(b) = &mut p.build {
            b.editor.note = None;
        }
        self.rooms.insert(r, room);
        p.place = Place::Room(r);
        p.clear = true;
        p.mouse = Some(false);
        self.start_race(r);
    }

    /// What the records' thread did of players' track jobs.
    pub(super) fn tracks_news(&mut self, news: Vec<TrackNews>) {
        for said in news {
            match said {
                TrackNews::Saved(id, name, kept) => self.saved(id, &name, kept),
                TrackNews::Mine(id, Ok(tracks)) => {
                    if let Some(p) = self.players.get_mut(&id) {
                        p.shelf = tracks;
                        p.session.dirty = true;
                    }
                }
                TrackNews::Mine(_, Err(_)) => {}
                TrackNews::Opened(id, name, body) => self.opened(id, &name, body),
                TrackNews::Published(id, name, done) => self.publishing(id, &name, done),
            }
        }
    }

    /// `id`'s drawing kept as `name`, or not and why.
    fn saved(&mut self, id: PlayerId, name: &str, kept: Result<Shelving, String>) {
        let Some(b) = self.players.get_mut(&id).and_then(|p| p.build.as_mut()) else {
            return;
        };
        let editor = &mut b.editor;
        let Some(served) = editor.served.as_mut() else {
            return;
        };
        let (text, raceable) = served.saving.clone().unwrap_or_default();
        let place = match kept {
            Ok(Shelving::Saved { published }) => {
                served.published = published;
                editor.path = PathBuf::from(name);
                let public = if published {
                    "published"
                } else {
                    "yours alone"
                };
                Ok(format!("{name} on the server, {public}"))
            }
            Ok(Shelving::Full(n)) => Err(format!(
                "you keep {n} tracks, the most: save over one by its name (n)"
            )),
            Err(why) => Err(why),
        };
        editor.kept(text, raceable, place);
        if let Some(p) = self.players.get_mut(&id) {
            p.session.dirty = true;
        }
        self.ask_mine(id);
    }

    /// `id`'s track `name` read, to open in the editor.
    fn opened(&mut self, id: PlayerId, name: &str, body: Result<Option<String>, String>) {
        let Some(p) = self.players.get_mut(&id).filter(|p| p.build.is_none()) else {
            return;
        };
        p.session.dirty = true;
        match body {
            Ok(Some(body)) => {
                let published = (p.shelf.iter()).any(|t| t.name == name && t.published);
                self.open_editor(id, Draft::read(&body), name, published);
            }
            Ok(None) => p.note = Some(format!("{name}: no such track of yours")),
            Err(why) => p.note = Some(why),
        }
    }

    /// `id`'s track `name` published or taken back, or why not.
    fn publishing(&mut self, id: PlayerId, name: &str, done: Result<Publishing, String>) {
        let Some(b) = self.players.get_mut(&id).and_then(|p| p.build.as_mut()) else {
            return;
        };
        let served = b.editor.served.as_mut();
        let note = match done {
            Ok(Publishing::Published) => {
                if let Some(s) = served {
                    s.published = true;
                }
                eprintln!("skid serve: player {id} published {name}");
                format!("published: {name} is in every lobby")
            }
            Ok(Publishing::Unpublished) => {
                if let Some(s) = served {
                    s.published = false;
                }
                format!("{name} is yours alone again")
            }
            Ok(Publishing::NotDriven) => {
                "drive a lap of it as it is first (d), then Ctrl-P".to_string()
            }
            Ok(Publishing::Missing) => "save it first: Ctrl-S".to_string(),
            Err(why) => why,
        };
        b.editor.note = Some(note);
        if let Some(p) = self.players.get_mut(&id) {
            p.session.dirty = true;
        }
        self.ask_mine(id);
    }

    /// The published tracks now, `list`: offered after the server's own
    /// (their medals asked for as they come); a room whose track is
    /// gone goes back to the first of the server's own.
    pub(super) fn published(&mut self, list: Vec<PlayersTrack>) {
        let before: Vec<(u32, Option<String>)> = (self.rooms.iter())
            .map(|(&r, room)| {
                let was = (room.menu.track >= self.base_tracks)
                    .then(|| self.tracks.get(room.menu.track).map(|t| t.id.clone()))
                    .flatten();
                (r, was)
            })
            .collect();
        self.tracks.truncate(self.base_tracks);
        for t in &list {
            let new = !(self.players_tracks.iter()).any(|o| o.offered.id == t.offered.id);
            if new {
                super::today::warm_medals(&mut self.medals, &self.cars, &t.offered);
            }
            self.tracks.push(t.offered.clone());
        }
        let first = if self.daily.is_some() {
            super::super::daily::SLOTS
        } else {
            0
        };
        for (r, was) in before {
            let (Some(room), Some(id)) = (self.rooms.get_mut(&r), was) else {
                continue;
            };
            room.menu.track = (self.tracks.iter().skip(self.base_tracks))
                .position(|t| t.id == id)
                .map_or(first, |i| self.base_tracks + i);
        }
        self.players_tracks = list;
        self.relist_tracks();
        self.lobby_changed();
    }

    /// The lobby's line for each published track, written again when
    /// the tracks or the medals known change (not at each frame): name,
    /// maker, and its gold time in `arcade` once worked out.
    pub(super) fn relist_tracks(&mut self) {
        self.track_lines = (self.players_tracks.iter())
            .map(|t| {
                let setup = Menu::new(0, ModelKind::Arcade).setup(&t.offered.choice, &self.cars);
                let key = (t.offered.id.clone(), setup.model, setup.spec.content_id());
                let gold = (self.medals.get(&key).medals()).map_or(String::new(), |m| {
                    let time = crate::ui::hud::clock(Some(m.time(Medal::Gold)));
                    format!(" · gold {time}")
                });
                format!("{} · by {}{gold}", t.shelved.name, t.shelved.maker)
            })
            .collect();
    }
}

/// Works out the racing line of the drawing, as `text` (from its start
/// or from the cursor), on a thread of its own, to try it once it is
/// ready ([`Hub::poll_builders`]).
fn try_drawing(b: &mut Builder, text: String) {
    let name = b.editor.name().unwrap_or_else(|| "drawing".into());
    let (tell, coming) = channel();
    let spawned = std::thread::Builder::new()
        .name("skid-trial".into())
        .spawn(move || {
            let made = TrackChoice::from_text(&name, &text, str::to_string).map(Offered::new);
            let _ = tell.send(made);
        });
    match spawned {
        Ok(_) => {
            b.trying = Some(coming);
            b.editor.note = Some("the track is being made ready…".into());
        }
        Err(e) => b.editor.note = Some(format!("cannot try it now: {e}")),
    }
}

#[cfg(test)]
mod tests;
