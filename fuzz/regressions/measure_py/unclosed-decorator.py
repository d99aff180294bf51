class A:
    @d(
        # open
    def f(self):
        x = [
    # c
