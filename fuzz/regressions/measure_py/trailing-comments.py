@a
# c
@b
async def f(): pass
	# tab
  # two
# zero
