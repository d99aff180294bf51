#if X
class A { void F() { {{{{((((
#endif
[Attr] partial record struct R(int X) { public static implicit operator int(R r) => 0; }
