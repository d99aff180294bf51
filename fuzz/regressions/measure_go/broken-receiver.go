package p
type (
	A struct{ f interface{ M(
	B = interface {
func (p *(*[T]) X() {
