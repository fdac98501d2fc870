app_name = "enforcement"

urlpatterns = []
