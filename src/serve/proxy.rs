//! The PROXY protocol (haproxy's, versions 1 and 2): behind a TCP load
//! balancer every connection comes from the balancer's address, so the
//! per-address limit would hold the whole server to a few players and the
//! log would name nobody. With `--proxy-protocol` the balancer begins
//! each connection with a header naming the player's address; this reads
//! it (parsed by the `ppp` crate), and not one byte past it, which is the
//! player's SSH.

use std::net::SocketAddr;

use ppp::HeaderResult;
use ppp::PartialResult;
use tokio::io::{AsyncRead, AsyncReadExt};

/// The shortest header: `PROXY UNKNOWN\r\n` (a version 2 one is 16 bytes
/// at least). Read at once, it is no more than any header.
const SHORTEST: usize = 15;

/// The longest version 1 header, by the protocol's own count.
const LONGEST_V1: usize = 107;

/// The version 2 signature.
const V2: &[u8; 12] = b"\r\n\r\n\0\r\nQUIT\n";

/// Reads the PROXY header at the start of `stream`: the address it names
/// for the connection's client, or none where it names none (a version 1
/// `UNKNOWN`, a version 2 `LOCAL`: the balancer's own health check, or an
/// address family other than IP), where the connection's own peer counts.
/// What is not a header is an error that says why.
pub async fn read_header<R: AsyncRead + Unpin>(
    stream: &mut R,
) -> Result<Option<SocketAddr>, String> {
    let mut buf = vec![0u8; SHORTEST];
    read(stream, &mut buf).await?;
    if buf.starts_with(V2) {
        // 16 bytes, the last two the length of what follows.
        buf.push(0);
        read(stream, &mut buf[SHORTEST..]).await?;
        let rest = usize::from(u16::from_be_bytes([buf[14], buf[15]]));
        let at = buf.len();
        buf.resize(at + rest, 0);
        read(stream, &mut buf[at..]).await?;
    } else if buf.starts_with(b"PROXY ") {
        // A byte at a time to its end: the SSH that follows is not ours.
        while !buf.ends_with(b"\r\n") {
            if buf.len() == LONGEST_V1 {
                return Err("a PROXY header longer than the protocol allows".into());
            }
            let mut one = [0u8];
            read(stream, &mut one).await?;
            buf.push(one[0]);
        }
    } else {
        return Err("no PROXY header (is the balancer set to send one?)".into());
    }
    source(&buf)
}

/// Fills `buf` from `stream`, or says the connection ended first.
async fn read<R: AsyncRead + Unpin>(stream: &mut R, buf: &mut [u8]) -> Result<(), String> {
    match stream.read_exact(buf).await {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err("closed before its PROXY header ended".into())
        }
        Err(e) => Err(format!("reading its PROXY header: {e}")),
    }
}

/// The client's address in a whole header `bytes`.
fn source(bytes: &[u8]) -> Result<Option<SocketAddr>, String> {
    use ppp::{v1, v2};
    let header = HeaderResult::parse(bytes);
    if header.is_incomplete() {
        return Err("a PROXY header cut short".into());
    }
    match header {
        HeaderResult::V1(Ok(h)) => Ok(match h.addresses {
            v1::Addresses::Tcp4(a) => Some((a.source_address, a.source_port).into()),
            v1::Addresses::Tcp6(a) => Some((a.source_address, a.source_port).into()),
            v1::Addresses::Unknown => None,
        }),
        HeaderResult::V2(Ok(h)) if h.command == v2::Command::Local => Ok(None),
        HeaderResult::V2(Ok(h)) => Ok(match h.addresses {
            v2::Addresses::IPv4(a) => Some((a.source_address, a.source_port).into()),
            v2::Addresses::IPv6(a) => Some((a.source_address, a.source_port).into()),
            v2::Addresses::Unspecified | v2::Addresses::Unix(_) => None,
        }),
        HeaderResult::V1(Err(e)) => Err(format!("a bad PROXY header: {e}")),
        HeaderResult::V2(Err(e)) => Err(format!("a bad PROXY header: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a header from `bytes`: the address, and what is left unread.
    fn read_from(bytes: &[u8]) -> (Result<Option<SocketAddr>, String>, Vec<u8>) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut r = bytes;
            let got = read_header(&mut r).await;
            (got, r.to_vec())
        })
    }

    fn v2(command: ppp::v2::Command, from: &str, tlv: &[u8]) -> Vec<u8> {
        use ppp::v2::{Builder, Protocol, Version};
        let from: SocketAddr = from.parse().unwrap();
        let to: SocketAddr = if from.is_ipv4() {
            "10.0.0.11:2222".parse().unwrap()
        } else {
            "[2001:db8::11]:2222".parse().unwrap()
        };
        let mut b = Builder::with_addresses(Version::Two | command, Protocol::Stream, (from, to));
        if !tlv.is_empty() {
            b = b.write_tlv(0xE0, tlv).unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn each_version_names_the_client_and_leaves_the_ssh_unread() {
        let ssh = b"SSH-2.0-OpenSSH_9.6\r\n";
        let long_tlv = vec![7u8; 300];
        let cases: Vec<(Vec<u8>, Option<&str>)> = vec![
            (
                b"PROXY TCP4 203.0.113.7 10.0.0.11 51000 2222\r\n".to_vec(),
                Some("203.0.113.7:51000"),
            ),
            (
                b"PROXY TCP6 2001:db8::7 2001:db8::11 51000 2222\r\n".to_vec(),
                Some("[2001:db8::7]:51000"),
            ),
            (b"PROXY UNKNOWN\r\n".to_vec(), None),
            (
                v2(ppp::v2::Command::Proxy, "198.51.100.9:4000", &[]),
                Some("198.51.100.9:4000"),
            ),
            (
                v2(ppp::v2::Command::Proxy, "[2001:db8::9]:4000", &long_tlv),
                Some("[2001:db8::9]:4000"),
            ),
            (v2(ppp::v2::Command::Local, "10.0.0.1:9", &[]), None),
        ];
        for (header, want) in cases {
            let mut bytes = header.clone();
            bytes.extend_from_slice(ssh);
            let (got, left) = read_from(&bytes);
            let want = want.map(|w| w.parse::<SocketAddr>().unwrap());
            assert_eq!(got, Ok(want), "{header:?}");
            assert_eq!(left, ssh, "{header:?}: the SSH is left as it came");
        }
    }

    #[test]
    fn anything_else_is_an_error_that_says_why() {
        let cases: [(&[u8], &str); 6] = [
            (b"SSH-2.0-OpenSSH_9.6\r\n", "no PROXY header"),
            (b"PROXY TCP4 1.2.3.4", "closed before"),
            (b"", "closed before"),
            (b"PROXY TCP4 300.1.1.1 10.0.0.1 1 2\r\n", "a bad PROXY header"),
            (b"PROXY TCP4 1.2.3.4 10.0.0.1 1 2 and on and on and on and on and on and on and on and on and on and on and on and on\r\n", "longer than"),
            (b"\r\n\r\n\0\r\nQUIT\n\x21\x11\x00\x0c\x01\x02", "closed before"),
        ];
        for (bytes, why) in cases {
            let (got, _) = read_from(bytes);
            let e = got.expect_err(&format!("{bytes:?}"));
            assert!(e.contains(why), "{bytes:?}: {e}");
        }
    }
}
