//! Keys as python-blosc2 4.14.1 accepts them: `EmbedStore._validate_key` (the stricter
//! of its two checks: TreeStore's adds a leading `/` and allows `:`), and TreeStore's
//! refusal of a leaf where a group is, or under a leaf.

use std::format;

use super::files::refused;
use crate::container::ContainerError;

/// Refuses what python refuses of `key`, and what would not name a file of its own
/// (the root, `.` and `..` segments).
pub(crate) fn check_key(key: &str) -> Result<(), ContainerError> {
    let why = if !key.starts_with('/') {
        "must start with '/'"
    } else if key == "/" {
        "must name a node, not the root '/'"
    } else if key.ends_with('/') {
        "cannot end with '/'"
    } else if key.contains("//") {
        "cannot contain consecutive slashes '//'"
    } else if let Some(c) = key
        .chars()
        .find(|c| [':', '\0', '\n', '\r', '\t'].contains(c))
    {
        return Err(refused(format!(
            "key {key:?} cannot contain the character {c:?}, as python-blosc2 refuses it"
        )));
    } else if key.split('/').any(|s| s == "." || s == "..") {
        "cannot hold a '.' or '..' segment (it would name a file outside its place)"
    } else {
        return Ok(());
    };
    Err(refused(format!(
        "key {key:?} {why}, as python-blosc2 checks keys"
    )))
}

/// In a TreeStore, refuses `key` where `keys` hold a leaf under it (it is a group) or
/// a leaf above it (it would be a child of data), as `TreeStore.__setitem__` does.
pub(crate) fn check_tree_place<'a>(
    key: &str,
    keys: impl Iterator<Item = &'a str>,
) -> Result<(), ContainerError> {
    for other in keys {
        if other
            .strip_prefix(key)
            .is_some_and(|rest| rest.starts_with('/'))
        {
            return Err(refused(format!(
                "{key:?} is a group of the TreeStore ({other:?} is under it): a leaf and a group cannot share a name"
            )));
        }
        if key
            .strip_prefix(other)
            .is_some_and(|rest| rest.starts_with('/'))
        {
            return Err(refused(format!(
                "{key:?} would be under the leaf {other:?}: a leaf holds no children in a TreeStore"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_python_refuses_are_refused() {
        for key in [
            "a", "/", "/a/", "/a//b", "/a:b", "/a\tb", "/a\nb", "/a\0", "/../a", "/a/./b",
        ] {
            assert!(check_key(key).is_err(), "{key:?}");
        }
        for key in ["/a", "/a/b", "/a.b", "/é", "/a b"] {
            assert!(check_key(key).is_ok(), "{key:?}");
        }
    }

    #[test]
    fn a_tree_refuses_a_leaf_over_a_group_or_under_a_leaf() {
        let keys = ["/g/a", "/leaf"];
        assert!(check_tree_place("/g", keys.into_iter()).is_err());
        assert!(check_tree_place("/leaf/x", keys.into_iter()).is_err());
        assert!(check_tree_place("/g/b", keys.into_iter()).is_ok());
        assert!(check_tree_place("/ga", keys.into_iter()).is_ok());
        assert!(check_tree_place("/g/a", keys.into_iter()).is_ok());
    }
}
