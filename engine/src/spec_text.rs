//! The `key=value,key=value…` part of a spec, read one way for games (`rin:size=8`) and
//! agents (`mcts:iters=500,c=0.7`, `gtp:cmd="castro -f 1"`): items split at the commas outside
//! double quotes, each a key and a value with the spaces at their ends trimmed, no key twice.

/// What is wrong with a spec's items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemsFault {
    /// An item that is not `key=value`, or a double quote left open.
    Malformed,
    /// A key given twice.
    Repeated,
}

/// Why a spec's items could not be read, in words that name the spec's owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemsError {
    /// Which rule the text broke.
    pub fault: ItemsFault,
    /// The sentence for the user.
    pub reason: String,
}

/// The items of `text` (what follows a spec's `:`) in the order given; `owner` (the game's
/// or agent kind's name) begins each error's reason. Empty items are skipped, so `a=1,,b=2`
/// and a trailing comma are accepted.
pub fn key_values(owner: &str, text: &str) -> Result<Vec<(String, String)>, ItemsError> {
    let fault = |fault: ItemsFault, reason: String| ItemsError {
        fault,
        reason: format!("{owner}: {reason}"),
    };
    let mut items: Vec<(String, String)> = Vec::new();
    let split = split_items(text).map_err(|e| fault(e.fault, e.reason))?;
    for item in split.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| {
            fault(
                ItemsFault::Malformed,
                format!("option '{item}' is not of the form key=value"),
            )
        })?;
        let key = key.trim();
        if items.iter().any(|(k, _)| k == key) {
            return Err(fault(
                ItemsFault::Repeated,
                format!("option '{key}' is given twice"),
            ));
        }
        items.push((key.to_string(), value.trim().to_string()));
    }
    Ok(items)
}

/// Splits `key=value,key=value` at the commas outside double quotes; a double-quoted part
/// keeps its commas, with `\"` and `\\` inside, and loses its quotes. A quote left open (or
/// a value ending in a backslash) is [`ItemsFault::Malformed`]; the reason names no owner.
pub fn split_items(text: &str) -> Result<Vec<String>, ItemsError> {
    let malformed = |reason: String| ItemsError {
        fault: ItemsFault::Malformed,
        reason,
    };
    let mut items = vec![String::new()];
    let mut chars = text.chars();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        let item = items.last_mut().expect("never empty");
        match c {
            '"' => quoted = !quoted,
            '\\' if quoted => item.push(
                chars
                    .next()
                    .ok_or_else(|| malformed("a value ends with '\\'".into()))?,
            ),
            ',' if !quoted => items.push(String::new()),
            c => item.push(c),
        }
    }
    if quoted {
        return Err(malformed(format!("unclosed double quote in '{text}'")));
    }
    Ok(items)
}

/// A `key=value` item written so that [`split_items`] reads it back: the value in double
/// quotes when it holds a comma, a quote, a backslash or spaces at its ends.
#[must_use]
pub fn quote_item(item: &str) -> String {
    let Some((key, value)) = item.split_once('=') else {
        return item.to_string();
    };
    if value.contains([',', '"', '\\']) || value.trim() != value {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        format!("{key}=\"{escaped}\"")
    } else {
        item.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn items_are_read_in_order_trimmed_and_quoted_values_keep_their_commas() {
        assert_eq!(key_values("x", "").unwrap(), pairs(&[]));
        assert_eq!(
            key_values("x", " a = 1 ,, b=two,").unwrap(),
            pairs(&[("a", "1"), ("b", "two")])
        );
        assert_eq!(
            key_values("gtp", r#"cmd="castro -f 1,2 \"q\"",name=c"#).unwrap(),
            pairs(&[("cmd", r#"castro -f 1,2 "q""#), ("name", "c")])
        );
    }

    #[test]
    fn a_malformed_or_repeated_item_is_refused_with_its_fault_and_owner() {
        let err = key_values("rin", "size").unwrap_err();
        assert_eq!(err.fault, ItemsFault::Malformed);
        assert_eq!(
            err.reason,
            "rin: option 'size' is not of the form key=value"
        );
        let err = key_values("mcts", "c=1, c =2").unwrap_err();
        assert_eq!(err.fault, ItemsFault::Repeated);
        assert_eq!(err.reason, "mcts: option 'c' is given twice");
        let err = key_values("gtp", "cmd=\"x").unwrap_err();
        assert_eq!(err.fault, ItemsFault::Malformed);
        assert!(
            err.reason.starts_with("gtp: unclosed double quote"),
            "{err:?}"
        );
    }

    #[test]
    fn a_quoted_item_reads_back_as_written() {
        for value in ["plain", "a,b", "say \"hi\"", "back\\slash", " padded "] {
            let item = quote_item(&format!("k={value}"));
            assert_eq!(
                key_values("x", &item).unwrap(),
                pairs(&[("k", value.trim())]),
                "{item}"
            );
        }
    }
}
