//! Who may hold a connection to the server, and for how long it may wait
//! before it plays.
//!
//! A connection is *pending* from its first byte until its shell joins
//! the lobby, and a *player* after. The two are counted apart: pending
//! connections have a budget of their own ([`pending_budget`]) and never
//! take a player's place, so sockets that connect and say nothing, or
//! log in and never open a shell, cannot fill `--max-players`. Every
//! connection, pending or playing, counts towards its address's limit
//! (`--per-address`, [`PER_ADDRESS`] by default), with IPv6 addresses
//! grouped by their /64 network
//! (one host is usually given a whole /64). The deadline that closes a
//! pending connection is the accept loop's (`accept::serve_one`); this module
//! only counts.
//!
//! The door for other servers' relays has counts of its own for
//! addresses and pending connections ([`Admission::for_relays`]), but its
//! players are the server's: a relayed player takes a place of
//! `--max-players` as a direct one does, and one past them is refused
//! once logged in, in words the relay passes on ("server full"), not at
//! the door.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Connections from one address (or one IPv6 /64) at once, unless the
/// operator says otherwise (`--per-address`: players behind one NAT).
pub const PER_ADDRESS: usize = 4;

/// Connections that may wait to join at once, for a server of
/// `max_players`: half as many, at least 8 and at most 256. Logging in
/// takes a client well under a second, so this many at once is a crowd.
pub fn pending_budget(max_players: usize) -> usize {
    (max_players / 2).clamp(8, 256)
}

/// The address that the per-address limit counts `ip` under: IPv4 as it
/// is (an IPv4-mapped IPv6 address as the IPv4 one), IPv6 by its /64.
pub fn group(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its address (or /64) has as many connections as it may already.
    Address,
    /// [`pending_budget`] connections are waiting to join already.
    Pending,
    /// `--max-players` are playing.
    Full,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::Address => "too many connections from its address",
            Refused::Pending => "too many connections waiting to log in",
            Refused::Full => "server full",
        })
    }
}

#[derive(Default)]
struct Counts {
    by_group: HashMap<IpAddr, usize>,
    pending: usize,
}

/// A door's counts of connections, shared by its accept loop and its
/// connections; the players are the server's, every door's.
pub struct Admission {
    max_players: usize,
    max_pending: usize,
    per_address: usize,
    /// Whether a full server refuses a connection at once (the players'
    /// door) or once it has logged in, saying so (the relays').
    full_at_door: bool,
    counts: Mutex<Counts>,
    players: Arc<Mutex<usize>>,
}

impl Admission {
    /// Counts for a server of `max_players`, `per_address` connections
    /// from one address at once.
    pub fn new(max_players: usize, per_address: usize) -> Arc<Admission> {
        Arc::new(Admission {
            max_players,
            max_pending: pending_budget(max_players),
            per_address,
            full_at_door: true,
            counts: Mutex::default(),
            players: Arc::default(),
        })
    }

    /// The door for relays' counts: every relay comes from a few
    /// servers' addresses, so only its players are limited, and they are
    /// this door's players (the server's `--max-players` for both).
    pub fn for_relays(self: &Arc<Self>) -> Arc<Admission> {
        Arc::new(Admission {
            max_players: self.max_players,
            max_pending: self.max_pending,
            per_address: self.max_players,
            full_at_door: false,
            counts: Mutex::default(),
            players: self.players.clone(),
        })
    }

    fn players(&self) -> MutexGuard<'_, usize> {
        self.players.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Connections that may wait to join at once ([`pending_budget`]).
    pub fn max_pending(&self) -> usize {
        self.max_pending
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits a new connection from `ip` as pending, or says why not.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Arc<Ticket>, Refused> {
        let group = group(ip);
        let mut c = self.counts();
        if c.by_group.get(&group).copied().unwrap_or(0) >= self.per_address {
            return Err(Refused::Address);
        }
        if c.pending >= self.max_pending {
            return Err(Refused::Pending);
        }
        // A server full of players lets nobody wait for a place.
        if self.full_at_door && *self.players() >= self.max_players {
            return Err(Refused::Full);
        }
        *c.by_group.entry(group).or_insert(0) += 1;
        c.pending += 1;
        Ok(Arc::new(Ticket {
            admission: self.clone(),
            group,
            playing: AtomicBool::new(false),
        }))
    }

    /// How many connections are pending and playing now.
    #[cfg(test)]
    fn counts_now(&self) -> (usize, usize) {
        let c = self.counts();
        (c.pending, *self.players())
    }
}

/// One admitted connection's place in the counts, given back when the
/// last holder drops it.
pub struct Ticket {
    admission: Arc<Admission>,
    group: IpAddr,
    playing: AtomicBool,
}

impl Ticket {
    /// Moves the connection from pending to playing, if a player's place
    /// is free; false when the server is full (or it plays already).
    pub fn play(&self) -> Result<(), Refused> {
        let mut c = self.admission.counts();
        if self.playing.load(Ordering::SeqCst) {
            return Ok(());
        }
        let mut players = self.admission.players();
        if *players >= self.admission.max_players {
            return Err(Refused::Full);
        }
        c.pending -= 1;
        *players += 1;
        self.playing.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Whether the connection has joined the lobby.
    pub fn playing(&self) -> bool {
        self.playing.load(Ordering::SeqCst)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.admission.counts();
        if self.playing.load(Ordering::SeqCst) {
            *self.admission.players() -= 1;
        } else {
            c.pending -= 1;
        }
        if let Some(n) = c.by_group.get_mut(&self.group) {
            *n -= 1;
            if *n == 0 {
                c.by_group.remove(&self.group);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_is_grouped_by_its_64_and_ipv4_alone() {
        assert_eq!(group(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            group(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")),
            group(ip("2001:db8:1:2::7"))
        );
        assert_ne!(group(ip("2001:db8:1:3::1")), group(ip("2001:db8:1:2::1")));
        assert_eq!(group(ip("10.0.0.7")), ip("10.0.0.7"));
        assert_eq!(group(ip("::ffff:10.0.0.7")), ip("10.0.0.7"));
    }

    #[test]
    fn one_64_holds_four_connections_however_many_addresses_it_uses() {
        let a = Admission::new(64, PER_ADDRESS);
        let held: Vec<_> = (1..=4)
            .map(|i| a.admit(ip(&format!("2001:db8::{i}"))).unwrap())
            .collect();
        assert_eq!(a.admit(ip("2001:db8::99")).err(), Some(Refused::Address));
        assert!(a.admit(ip("2001:db8:0:1::1")).is_ok(), "another /64");
        drop(held);
        assert!(a.admit(ip("2001:db8::99")).is_ok());
    }

    #[test]
    fn pending_connections_never_take_a_players_place() {
        let a = Admission::new(2, PER_ADDRESS);
        let budget = pending_budget(2);
        // The pending budget filled from many addresses.
        let waiting: Vec<_> = (0..budget)
            .map(|i| a.admit(ip(&format!("127.0.1.{i}"))).unwrap())
            .collect();
        assert_eq!(a.admit(ip("127.0.2.1")).err(), Some(Refused::Pending));
        assert_eq!(a.counts_now(), (budget, 0));
        // Two of them join: the server is full of players, and the rest
        // stay pending, unable to join.
        waiting[0].play().unwrap();
        waiting[1].play().unwrap();
        assert_eq!(waiting[2].play(), Err(Refused::Full));
        assert_eq!(a.counts_now(), (budget - 2, 2));
        drop(waiting);
        assert_eq!(a.counts_now(), (0, 0));
    }

    #[test]
    fn relayed_players_take_the_servers_places() {
        let a = Admission::new(2, PER_ADDRESS);
        let relays = a.for_relays();
        let direct = a.admit(ip("127.0.0.1")).unwrap();
        direct.play().unwrap();
        let relayed = relays.admit(ip("127.0.0.9")).unwrap();
        relayed.play().unwrap();
        // Full: the players' door refuses at once; the relays' lets the
        // relay log in, to be told so.
        assert_eq!(a.admit(ip("127.0.0.2")).err(), Some(Refused::Full));
        let late = relays.admit(ip("127.0.0.9")).unwrap();
        assert_eq!(late.play(), Err(Refused::Full));
        drop(relayed);
        assert!(late.play().is_ok(), "a place freed");
        assert_eq!(a.counts_now(), (0, 2));
    }

    #[test]
    fn a_full_server_refuses_at_the_door() {
        let a = Admission::new(1, PER_ADDRESS);
        let p = a.admit(ip("127.0.0.1")).unwrap();
        p.play().unwrap();
        assert_eq!(a.admit(ip("127.0.0.2")).err(), Some(Refused::Full));
        drop(p);
        assert!(a.admit(ip("127.0.0.2")).is_ok());
    }
}
