//! `obj!`: a JSON object from `"key" => value` pairs in order. The writers
//! build many objects; `json!` sends every value through serde's serializer
//! and an `unwrap` at each site, which the size budget cannot afford. Here
//! a value is read by reference through `ToValue`, one small conversion per
//! type (strings, numbers, booleans, values, maps, options, slices).
//! Nested objects are nested `obj!`s; arrays are `Vec`s or slices.

use serde_json::{Map, Value};

/// A JSON object, its members in the order written.
#[macro_export]
macro_rules! obj {
    ($($key:literal => $value:expr),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut map = serde_json::Map::new();
        $( $crate::object::put(&mut map, $key, $crate::object::ToValue::to_value(&$value)); )*
        serde_json::Value::Object(map)
    }};
}

/// One member of an object `obj!` builds: out of line, so each of the
/// macro's hundreds of uses costs a call, not an inlined key copy and drop.
#[inline(never)]
pub fn put(map: &mut serde_json::Map<String, Value>, key: &'static str, value: Value) {
    map.insert(key.to_string(), value);
}

/// What a report value can be written as.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64, f64);

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl ToValue for Map<String, Value> {
    fn to_value(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

impl<T: ToValue> ToValue for [T] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(ToValue::to_value).collect())
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        self.as_slice().to_value()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    #[test]
    fn members_keep_their_order_and_values_convert() {
        let names = vec!["a".to_string()];
        let name = &names[0];
        let v = crate::obj! {
            "z" => 1u64,
            "a" => names,
            "s" => name,
            "n" => Option::<u64>::None,
            "o" => crate::obj! { "x" => true },
        };
        assert_eq!(
            v,
            json!({"z": 1, "a": ["a"], "s": "a", "n": null, "o": {"x": true}})
        );
        let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["z", "a", "s", "n", "o"]);
        assert_eq!(crate::obj! {}, Value::Object(serde_json::Map::new()));
    }
}
