//! Square-board notation shared by every square-board game.
//!
//! A point is named by its column letter, `a` for the leftmost column, then `b`, `c`, … (no
//! letter is skipped), followed by its row number, `1` for the bottom row. On Rin's 16×16 board
//! the top-left corner is `a16` and the bottom-right corner is `p1`.
//!
//! The Rin seed counts (row, column) from the top-left corner, both from zero. Its point
//! `(r, c)` on an `n`×`n` board is column letter `c` and row number `n - r`: the seed's
//! `(0, 0)` is `a16`, its marked point `(3, 6)` is `g13`.

use crate::error::ParseMoveError;

/// The name of the point at `col` (0 = left) and `row` (0 = bottom), for example `g13`.
#[must_use]
pub fn point_name(col: usize, row: usize) -> String {
    debug_assert!(col < 26);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Appends the name of the point at `col` and `row` to `out`, without allocating.
#[inline]
pub fn write_point_name(col: usize, row: usize, out: &mut String) {
    debug_assert!(col < 26 && row < 99);
    // Each character is an ASCII byte, and masking says so to the compiler: `String::push`
    // then appends one byte without its multi-byte branch.
    let ascii = |b: u8| char::from(b & 0x7f);
    let n = row + 1;
    out.reserve(3);
    out.push(ascii(b'a' + col as u8));
    if n >= 10 {
        out.push(ascii(b'0' + (n / 10) as u8));
    }
    out.push(ascii(b'0' + (n % 10) as u8));
}

/// Reads a point name on a `size`×`size` board into (column, row), both from zero,
/// row 0 at the bottom.
pub fn parse_point(text: &str, size: usize) -> Result<(usize, usize), ParseMoveError> {
    parse_point_on(text, size, size)
}

/// Reads a point name on a board of `columns` × `rows` (a board that need not be square, as
/// the m,n,k-game's) into (column, row), both from zero, row 0 at the bottom.
pub fn parse_point_on(
    text: &str,
    columns: usize,
    rows: usize,
) -> Result<(usize, usize), ParseMoveError> {
    let last_col = (b'a' + columns as u8 - 1) as char;
    let err = || ParseMoveError {
        text: text.to_string(),
        expected: format!(
            "a point a1..{last_col}{rows} (column letter, then row number from the bottom)"
        ),
    };
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(err)?;
    if !letter.is_ascii_lowercase() {
        return Err(err());
    }
    let col = (letter as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err());
    }
    let row: usize = digits.parse().map_err(|_| err())?;
    if col >= columns || row == 0 || row > rows {
        return Err(err());
    }
    Ok((col, row - 1))
}

/// Converts the seed's (row from the top, column) on an `n`×`n` board to a point name.
#[must_use]
pub fn seed_point_name(row_from_top: usize, col: usize, size: usize) -> String {
    point_name(col, size - 1 - row_from_top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_corner_and_marked_point_have_the_documented_names() {
        assert_eq!(seed_point_name(0, 0, 16), "a16");
        assert_eq!(seed_point_name(3, 6, 16), "g13");
        assert_eq!(seed_point_name(15, 15, 16), "p1");
    }

    #[test]
    fn every_point_name_parses_back_to_its_point() {
        for size in [6, 16, 19] {
            for col in 0..size {
                for row in 0..size {
                    assert_eq!(parse_point(&point_name(col, row), size), Ok((col, row)));
                }
            }
        }
    }

    #[test]
    fn written_names_equal_formatted_names() {
        for col in 0..19 {
            for row in 0..19 {
                let mut out = String::from("x");
                write_point_name(col, row, &mut out);
                assert_eq!(out, format!("x{}", point_name(col, row)));
            }
        }
    }

    #[test]
    fn malformed_or_off_board_points_are_refused() {
        for bad in [
            "", "a", "1", "a0", "a17", "q1", "A1", "a01", "a1x", "aa1", "a-1", " a1",
        ] {
            assert!(parse_point(bad, 16).is_err(), "{bad:?} should be refused");
        }
        assert!(parse_point("g7", 6).is_err());
    }

    #[test]
    fn a_board_of_more_columns_than_rows_names_its_points_by_both() {
        // Four columns, three rows: d3 is the top-right corner, a4 and e1 are off the board.
        assert_eq!(parse_point_on("d3", 4, 3), Ok((3, 2)));
        assert_eq!(parse_point_on("a1", 4, 3), Ok((0, 0)));
        for bad in ["a4", "e1", "d0"] {
            assert!(parse_point_on(bad, 4, 3).is_err(), "{bad}");
        }
        assert_eq!(
            parse_point_on("e1", 4, 3).unwrap_err().expected,
            "a point a1..d3 (column letter, then row number from the bottom)"
        );
    }

    #[test]
    fn a_refused_point_is_explained_with_the_boards_last_point() {
        for (size, range) in [(6, "a1..f6"), (16, "a1..p16"), (19, "a1..s19")] {
            let err = parse_point("z1", size).unwrap_err();
            assert_eq!(err.text, "z1");
            assert_eq!(
                err.expected,
                format!("a point {range} (column letter, then row number from the bottom)")
            );
        }
    }
}
