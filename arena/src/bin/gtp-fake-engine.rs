//! A scripted GTP engine for testing the arena's referee: it plays the first legal move of a
//! game, and misbehaves on purpose at its N-th `genmove`.
//!
//! `gtp-fake-engine GAME MODE N`, MODE one of:
//! `fine` (never misbehaves), `crash` (exits with code 3), `stall` (never answers),
//! `garbage` (answers a line that is not GTP), `illegal` (an occupied or unknown cell),
//! `unparsable` (`zz`), `error` (a `?` answer), `resign`, `deaf` (plays fine but ignores
//! `quit`, so the referee must kill it).

use std::io::{BufRead, Write};

use ringside_engine::registry::{GameVisitor, with_game};
use ringside_engine::{Features, Game};

struct Fake {
    mode: String,
    at: u32,
}

impl GameVisitor for Fake {
    type Output = ();
    fn visit<G: Game + Features>(self, start: G) {
        let mut state = start.clone();
        let mut played = Vec::new();
        let mut genmoves = 0;
        let stdin = std::io::stdin();
        let mut out = std::io::stdout();
        eprintln!("fake engine: {} {} at {}", start.spec(), self.mode, self.at);
        for line in stdin.lock().lines() {
            let Ok(line) = line else { return };
            let words: Vec<&str> = line.split_whitespace().collect();
            let answer: Result<String, String> = match words.first().copied() {
                Some("list_commands") => {
                    Ok("boardsize\nclear_board\nplay\ngenmove\nquit\nlist_commands".into())
                }
                Some("boardsize" | "clear_board") => {
                    state = start.clone();
                    Ok(String::new())
                }
                Some("play") => match words.get(2).map(|m| state.parse_move(m)) {
                    Some(Ok(mv)) if state.is_legal(mv) => {
                        played.push(mv);
                        state.play_unchecked(mv);
                        Ok(String::new())
                    }
                    _ => Err("illegal move".into()),
                },
                Some("genmove") => {
                    genmoves += 1;
                    let mut moves = Vec::new();
                    state.legal_moves(&mut moves);
                    let mv = moves[0];
                    if genmoves == self.at {
                        eprintln!("fake engine: now '{}'", self.mode);
                        match self.mode.as_str() {
                            "crash" => std::process::exit(3),
                            "stall" => loop {
                                std::thread::sleep(std::time::Duration::from_secs(60));
                            },
                            "garbage" => {
                                let _ = writeln!(out, "hello there\n");
                                let _ = out.flush();
                                continue;
                            }
                            "illegal" => {
                                let text = match played.first() {
                                    Some(&m) => start.move_text(m),
                                    None => "a1".into(),
                                };
                                Ok(text)
                            }
                            "unparsable" => Ok("zz".into()),
                            "error" => Err("cannot think".into()),
                            "resign" => Ok("resign".into()),
                            _ => Ok(state.move_text(mv)),
                        }
                    } else {
                        Ok(state.move_text(mv))
                    }
                    .inspect(|text| {
                        if let Ok(m) = state.parse_move(text) {
                            if state.is_legal(m) {
                                played.push(m);
                                state.play_unchecked(m);
                            }
                        }
                    })
                }
                Some("quit") if self.mode == "deaf" => Ok(String::new()),
                Some("quit") => {
                    let _ = write!(out, "=\n\n");
                    let _ = out.flush();
                    return;
                }
                _ => Err("unknown command".into()),
            };
            let text = match answer {
                Ok(body) if body.is_empty() => "=\n\n".to_string(),
                Ok(body) => format!("= {body}\n\n"),
                Err(reason) => format!("? {reason}\n\n"),
            };
            if out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                return;
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(game), Some(mode), Some(at)) = (args.get(1), args.get(2), args.get(3)) else {
        eprintln!("usage: gtp-fake-engine GAME MODE N");
        std::process::exit(2);
    };
    let at = at.parse().unwrap_or(u32::MAX);
    if let Err(e) = with_game(
        game,
        Fake {
            mode: mode.clone(),
            at,
        },
    ) {
        eprintln!("gtp-fake-engine: {e}");
        std::process::exit(2);
    }
}
